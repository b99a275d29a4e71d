import { Link } from 'react-router';
import { BRAND } from '@pawguard/shared/content';
import { paths } from '@/config/paths';

const LINKS = [
  { to: paths.safety, label: 'Safety Guide' },
  { to: paths.emergency, label: 'Emergency Vets' },
  { to: paths.support, label: 'Support' },
] as const;

export function AppFooter() {
  return (
    <footer className="border-t bg-card">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          © {new Date().getFullYear()} {BRAND.name}
        </p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded-sm font-medium text-foreground hover:text-primary"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
