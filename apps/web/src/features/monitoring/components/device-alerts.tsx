import { formatRelativeTime, type Alert } from '@pawguard/shared';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { TimeZoneNote, useDisplayUnits, type DisplayUnits } from '@/lib/display-units';
import { useNow } from '@/lib/use-now';
import type { AlertPeriod } from './history-charts';
import { useDeviceAlerts } from '@/lib/api/alerts';
import { ALERT_TYPE_WORDS } from '@/components/alert-banner';
import { LEVEL_LOOK } from '@/components/heat-risk';
import { acknowledgedWords } from '@/components/alert-acknowledgement';

/**
 * When an alert's condition began and ended, by the collar's clock where the readings say so:
 * from the reading that opened it to the one that ended it. For a backlog uploaded late these
 * are days before the alert was opened and resolved (at its arrival). An offline alert runs
 * from when it opened, and one resolved by hand until then; an open one has no end yet.
 */
export function alertSpan(a: Alert): { from: string; to: string | null } {
  return {
    from: a.type === 'offline' ? a.opened_at : (a.reading_at ?? a.opened_at),
    to: a.type === 'offline' ? a.resolved_at : (a.resolved_reading_at ?? a.resolved_at),
  };
}

/** The heat alerts of a device as time spans for the history chart (an open one runs to now). */
export function useAlertPeriods(deviceId: string, now: number): AlertPeriod[] {
  const open = useDeviceAlerts(deviceId, false).data?.alerts ?? [];
  const past = useDeviceAlerts(deviceId, true).data?.alerts ?? [];
  return [...open, ...past]
    .filter((a) => a.type === 'heat')
    .map((a) => {
      const span = alertSpan(a);
      return {
        from: Date.parse(span.from),
        to: span.to ? Date.parse(span.to) : now,
        level: a.level ?? 'WARNING',
      };
    });
}

function describe(a: Alert, temperature: DisplayUnits['temperature']): string {
  if (a.type === 'heat') {
    // In both units, the owner's first, as every other temperature on screen (DESIGN §3).
    const peak =
      a.peak_temperature_celsius === null
        ? ''
        : `, peak ${temperature(a.peak_temperature_celsius)}`;
    return `${ALERT_TYPE_WORDS.heat} · ${LEVEL_LOOK[a.level ?? 'WARNING'].word}${peak}`;
  }
  if (a.type === 'low_battery')
    return `${ALERT_TYPE_WORDS.low_battery} · ${a.battery_level ?? '?'}%`;
  if (a.type === 'collar_off') return ALERT_TYPE_WORDS.collar_off;
  if (a.type === 'over_budget') return ALERT_TYPE_WORDS.over_budget;
  return ALERT_TYPE_WORDS.offline;
}

/** The device's past (resolved) alerts, newest first. */
export function PastDeviceAlerts({ deviceId }: { deviceId: string }) {
  const units = useDisplayUnits();
  const { temperature, dateTime: when } = units;
  const past = useDeviceAlerts(deviceId, true);
  const now = useNow(60_000);
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Past alerts</CardTitle>
      </CardHeader>
      <CardContent>
        {past.isPending ? (
          <p className="text-sm text-muted-foreground">Loading past alerts...</p>
        ) : past.isError ? (
          <p role="alert" className="text-sm">
            Past alerts could not be loaded.
          </p>
        ) : past.data.alerts.length === 0 ? (
          <p className="text-sm text-muted-foreground">No past alerts for this collar.</p>
        ) : (
          <>
            <TimeZoneNote className="mb-2" />
            <ul className="grid gap-2 text-sm">
              {past.data.alerts.map((a) => {
                const span = alertSpan(a);
                return (
                  <li
                    key={a.id}
                    className="flex flex-wrap justify-between gap-x-4 border-b pb-2 last:border-0"
                  >
                    <span className="font-medium">{describe(a, temperature)}</span>
                    <span className="text-muted-foreground">
                      <time dateTime={span.from}>{when(span.from)}</time>
                      {span.to ? (
                        <>
                          {' – '}
                          <time dateTime={span.to}>{when(span.to)}</time>
                          {a.resolved_by === 'owner' ? ' (resolved by you)' : ''}
                        </>
                      ) : null}
                      {a.acknowledged_at ? (
                        <span className="block">{acknowledgedWords(a, now, units)}</span>
                      ) : null}
                      <span className="sr-only"> ({formatRelativeTime(span.from, now)})</span>
                    </span>
                  </li>
                );
              })}
            </ul>
          </>
        )}
        {past.data && past.data.total > past.data.alerts.length ? (
          <p className="mt-2 text-xs text-muted-foreground">
            Showing the latest {past.data.alerts.length} of {past.data.total}.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
