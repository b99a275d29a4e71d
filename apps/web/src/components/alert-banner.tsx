import { BatteryLow, CircleDashed, Gauge, Siren, WifiOff } from 'lucide-react';
import { formatRelativeTime, type Alert } from '@pawguard/shared';
import { useDisplayUnits, type DisplayUnits } from '@/lib/display-units';
import { EmergencyVetLink, LEVEL_LOOK, HeatFirstAid, HeatReasons } from '@/components/heat-risk';
import { AlertActions } from '@/components/alert-actions';
import { AlertAcknowledgement } from '@/components/alert-acknowledgement';
import { cn } from '@/lib/utils';

export { ALERT_TYPE_WORDS, resolveLabel } from '@/components/alert-actions';

/** What an open alert says, by type: its title line and what to do. */
function wordsOf(alert: Alert, temperature: DisplayUnits['temperature']) {
  if (alert.type === 'heat') {
    const look = LEVEL_LOOK[alert.level ?? 'WARNING'];
    const peak =
      alert.peak_temperature_celsius === null
        ? ''
        : ` · peak ${temperature(alert.peak_temperature_celsius)}`;
    return { title: `${look.word} heat alert${peak}`, className: look.className, Icon: Siren };
  }
  if (alert.type === 'collar_off')
    return {
      title: 'Collar off? No heart rate and no movement for a few minutes',
      className: 'border-slate-300 bg-slate-50 text-slate-900',
      Icon: CircleDashed,
    };
  if (alert.type === 'over_budget')
    return {
      title: 'Readings refused: too many from this collar or account',
      className: 'border-slate-300 bg-slate-50 text-slate-900',
      Icon: Gauge,
    };
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
 * An open alert where the owner looks (Monitoring card, dashboard card, My Pets, device page):
 * its level, since when, what to do now, and Resolve (a heat alert: Acknowledge beside it, or
 * who acknowledged it and when). A heat alert also says why
 * (the heat-risk model's reasons as of its opening or last escalation), gives the first aid
 * for its level and links the emergency vet finder. `compact` keeps the steps behind a
 * disclosure; `guidance={false}` leaves a heat alert's why, steps and link to the heat-risk
 * panel shown beside it, so a card does not say them twice.
 */
export function AlertBanner({
  alert,
  now,
  compact = false,
  guidance = true,
  canResolve,
}: {
  alert: Alert;
  now: number;
  compact?: boolean;
  guidance?: boolean;
  /** Only the collar's owner resolves its alerts: an admin looking on gets no button. */
  canResolve: boolean;
}) {
  const { temperature } = useDisplayUnits();
  const { title, className, Icon } = wordsOf(alert, temperature);
  const heat = alert.type === 'heat';
  const steps = heat ? (
    <HeatFirstAid level={alert.level ?? 'WARNING'} className="mt-1" />
  ) : (
    <p className="mt-2">
      {alert.type === 'offline'
        ? 'Check that the collar is charged, switched on and in range. PawGuard cannot watch your dog while it is silent.'
        : alert.type === 'collar_off'
          ? 'If it is charging or put away, all is well. Until it is back on your dog, only heat at your critical threshold raises a heat alert.'
          : alert.type === 'over_budget'
            ? (alert.reasons[0] ??
              'It sent far more readings than a collar needs. Check its firmware, or contact support if this goes on.')
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
        {canResolve ? <AlertActions alert={alert} /> : null}
      </div>
      <p className="mt-1">
        {/* "Opened 5m ago", "Opened just now" ("Since 5m ago" read oddly). */}
        Opened{' '}
        <time dateTime={alert.opened_at}>
          {formatRelativeTime(alert.opened_at, now).replace(/^Just now$/, 'just now')}
        </time>
      </p>
      {heat ? <AlertAcknowledgement alert={alert} now={now} className="mt-1 font-medium" /> : null}
      {heat && !guidance ? null : (
        <>
          {heat ? <HeatReasons reasons={alert.reasons} className="mt-2" /> : null}
          {compact && heat ? (
            <details className="mt-1">
              <summary className="cursor-pointer font-medium">What to do now</summary>
              {steps}
            </details>
          ) : heat ? (
            <>
              <p className="mt-2 font-medium">What to do now</p>
              {steps}
            </>
          ) : (
            steps
          )}
          {heat ? (
            <p className="mt-1">
              <EmergencyVetLink />
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
