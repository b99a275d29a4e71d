import { Link } from 'react-router';
import { BatteryLow, Siren, WifiOff } from 'lucide-react';
import { toast } from 'sonner';
import {
  formatCelsius,
  formatFahrenheit,
  celsiusToFahrenheit,
  formatRelativeTime,
  type Alert,
} from '@pawguard/shared';
import { HEAT_STROKE_STEPS } from '@pawguard/shared/content';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { useResolveAlert } from '@/lib/api/alerts';

const LEVEL_LOOK = {
  WARNING: { label: 'Warning', className: 'border-amber-300 bg-amber-50 text-amber-950' },
  DANGER: { label: 'Danger', className: 'border-orange-300 bg-orange-50 text-orange-950' },
  CRITICAL: { label: 'Critical', className: 'border-red-300 bg-red-50 text-red-950' },
} as const;

/** What an open alert says, by type: its title line and what to do. */
function wordsOf(alert: Alert) {
  if (alert.type === 'heat') {
    const look = LEVEL_LOOK[alert.level ?? 'WARNING'];
    const peak =
      alert.peak_temperature_celsius === null
        ? ''
        : ` · peak ${formatCelsius(alert.peak_temperature_celsius)} / ${formatFahrenheit(celsiusToFahrenheit(alert.peak_temperature_celsius))}`;
    return { title: `${look.label} heat alert${peak}`, className: look.className, Icon: Siren };
  }
  if (alert.type === 'offline')
    return {
      title: 'Collar offline: no reading for 10 minutes',
      className: 'border-slate-300 bg-slate-50 text-slate-900',
      Icon: WifiOff,
    };
  return {
    title: `Battery low${alert.battery_level === null ? '' : `: ${alert.battery_level}%`}`,
    className: 'border-amber-300 bg-amber-50 text-amber-950',
    Icon: BatteryLow,
  };
}

/**
 * An open alert where the owner looks (Monitoring card, dashboard card, device page): its
 * level, since when, what to do now (heat: the safety guide's first-aid steps, the same words
 * as the mail) and a Resolve button. `compact` keeps the steps behind a disclosure.
 */
export function AlertBanner({
  alert,
  now,
  compact = false,
}: {
  alert: Alert;
  now: number;
  compact?: boolean;
}) {
  const resolve = useResolveAlert();
  const { title, className, Icon } = wordsOf(alert);
  const steps =
    alert.type === 'heat' ? (
      <ol className="mt-2 grid list-decimal gap-1 pl-5">
        {HEAT_STROKE_STEPS.map((s) => (
          <li key={s.key}>
            <span className="font-medium">{s.title}:</span> {s.description}
          </li>
        ))}
      </ol>
    ) : (
      <p className="mt-2">
        {alert.type === 'offline'
          ? 'Check that the collar is charged, switched on and in range. PawGuard cannot watch your dog while it is silent.'
          : 'Charge the collar soon, so heat alerts keep reaching you.'}
      </p>
    );
  return (
    <div
      role="alert"
      data-alert-type={alert.type}
      data-level={alert.level ?? undefined}
      className={cn('rounded-lg border p-3 text-sm', className)}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="flex items-center gap-2 font-semibold">
          <Icon className="size-4 shrink-0" aria-hidden="true" />
          {title}
        </p>
        <Button
          size="sm"
          variant="outline"
          className="bg-card"
          disabled={resolve.isPending}
          onClick={() =>
            resolve.mutate(alert, {
              onSuccess: () => toast.success('Alert resolved'),
              onError: (error) =>
                toast.error('Failed to resolve alert', { description: error.message }),
            })
          }
        >
          Resolve
        </Button>
      </div>
      <p className="mt-1">
        Since <time dateTime={alert.opened_at}>{formatRelativeTime(alert.opened_at, now)}</time>
      </p>
      {compact && alert.type === 'heat' ? (
        <details className="mt-1">
          <summary className="cursor-pointer font-medium">What to do now</summary>
          {steps}
        </details>
      ) : (
        steps
      )}
      {alert.type === 'heat' ? (
        <p className="mt-2">
          <Link to={paths.emergency} className="font-semibold underline underline-offset-2">
            Find an emergency vet
          </Link>
        </p>
      ) : null}
    </div>
  );
}
