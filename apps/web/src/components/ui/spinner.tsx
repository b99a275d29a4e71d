import { Loader2 } from 'lucide-react';
// clsx, not cn: nothing here needs tailwind-merge, which stays out of the landing bundle.
import { clsx } from 'clsx';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-muted-foreground">
      <Loader2 className={clsx('size-5 animate-spin text-primary', className)} aria-hidden="true" />
      <span className={label ? 'text-sm' : 'sr-only'}>{label ?? 'Loading'}</span>
    </span>
  );
}
