import { PawPrint } from 'lucide-react';
import { BRAND } from '@pawguard/shared/content';
// clsx, not cn: nothing here needs tailwind-merge, which stays out of the landing bundle.
import { clsx } from 'clsx';

export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'inline-flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm',
        className,
      )}
    >
      <PawPrint className="size-5" />
    </span>
  );
}

/** The brand mark and name. Wrap it in a link or button; it carries no behaviour itself. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={clsx('inline-flex items-center gap-2', className)}>
      <LogoMark />
      <span className="text-lg font-bold tracking-tight">{BRAND.name}</span>
    </span>
  );
}
