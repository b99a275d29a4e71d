import { formatRelativeTime, type Alert } from '@pawguard/shared';
import { useDisplayUnits, type DisplayUnits } from '@/lib/display-units';
import { cn } from '@/lib/utils';

/**
 * When an acknowledgement was, on the account's clock: the time of day when it was today
 * there, else the date and time.
 */
function acknowledgedTime(at: string, now: number, units: DisplayUnits): string {
  return units.date(at) === units.date(now) ? units.time(at) : units.dateTime(at);
}

/**
 * Who acknowledged an alert and when, in words: "Acknowledged by Sam at 14:05", or
 * "Acknowledged at 14:05" when the alert does not say who (an older alert, or a deleted
 * account). Null when nobody has acknowledged it.
 */
export function acknowledgedWords(
  alert: Pick<Alert, 'acknowledged_at' | 'acknowledged_by_name'>,
  now: number,
  units: DisplayUnits,
): string | null {
  if (alert.acknowledged_at === null) return null;
  const at = acknowledgedTime(alert.acknowledged_at, now, units);
  return alert.acknowledged_by_name
    ? `Acknowledged by ${alert.acknowledged_by_name} at ${at}`
    : `Acknowledged at ${at}`;
}

/**
 * "Acknowledged by Sam at 14:05 (3m ago)" under an acknowledged alert: so everyone who sees
 * the alert knows someone is on it. Nothing for an alert nobody has acknowledged.
 */
export function AlertAcknowledgement({
  alert,
  now,
  className,
}: {
  alert: Pick<Alert, 'acknowledged_at' | 'acknowledged_by_name'>;
  now: number;
  className?: string;
}) {
  const units = useDisplayUnits();
  const at = alert.acknowledged_at;
  if (at === null) return null;
  const who = alert.acknowledged_by_name;
  const relative = formatRelativeTime(at, now).replace(/^Just now$/, 'just now');
  return (
    <p className={cn(className)} data-testid="alert-acknowledgement">
      {who ? `Acknowledged by ${who} at ` : 'Acknowledged at '}
      <time dateTime={at}>{acknowledgedTime(at, now, units)}</time> ({relative})
    </p>
  );
}
