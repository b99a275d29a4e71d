import { Link } from 'react-router';
import { ArrowRight, PawPrint, Activity, ShieldAlert } from 'lucide-react';
import type { User } from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { DogHomeCards } from './dog-home-cards';

const CARDS = [
  {
    to: paths.myPets,
    icon: PawPrint,
    title: 'My Pets',
    description: 'Add your dogs, keep their profiles and medical notes up to date.',
  },
  {
    to: paths.monitoring,
    icon: Activity,
    title: 'Monitoring',
    description: 'See live temperature, humidity and safe-zone status from every collar.',
  },
] as const;

export function UserDashboard({ user }: { user: User }) {
  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title={`Welcome, ${user.name}`}
        description="Keep an eye on your pets and stay ahead of the heat."
      />
      <DogHomeCards>
        <DashboardLinks />
      </DogHomeCards>
    </section>
  );
}

function DashboardLinks() {
  return (
    <>
      <ul className="grid gap-4 sm:grid-cols-2">
        {CARDS.map(({ to, icon: Icon, title, description }) => (
          <li key={to}>
            <Link
              to={to}
              className="group block h-full rounded-xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
            >
              <Card className="h-full transition-shadow group-hover:shadow-md">
                <CardHeader>
                  <span className="mb-2 inline-flex size-11 items-center justify-center rounded-lg bg-orange-100 text-orange-700">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <CardTitle as="h2" className="flex items-center justify-between">
                    {title}
                    <ArrowRight
                      className="size-4 text-muted-foreground transition-transform group-hover:translate-x-1"
                      aria-hidden="true"
                    />
                  </CardTitle>
                  <CardDescription>{description}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-6 flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
        <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>
          Hot day ahead? Read the{' '}
          <Link to={paths.safety} className="font-semibold underline underline-offset-2">
            Pet Safety Guide
          </Link>{' '}
          and keep the{' '}
          <Link to={paths.emergency} className="font-semibold underline underline-offset-2">
            emergency vet finder
          </Link>{' '}
          close.
        </p>
      </div>
    </>
  );
}
