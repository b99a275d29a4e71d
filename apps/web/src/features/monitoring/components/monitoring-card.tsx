import { Link } from 'react-router';
import { ChartLine } from 'lucide-react';
import { formatRelativeTime, isFresh, type Alert, type Device } from '@pawguard/shared';
import { AlertsWithRisk } from '@/components/alerts-with-risk';
import { HeatRiskLow, heatAlertOpen } from '@/components/heat-risk';
import { BatteryMeter } from '@/components/ui/battery-meter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { deviceHistoryPath } from '@/config/paths';
import { cn } from '@/lib/utils';
import type { ChangedField, ShownReading } from './reading-change';
import { ConnectionBadge, VitalsFields } from './vitals-values';
import { CollarOffBadge } from '@/components/collar-off-badge';

type MonitoringCardProps = {
  device: Device;
  /** The values to show: they follow changed readings only (spec section 4). */
  shown: ShownReading;
  now: number;
  showOwner: boolean;
  /** Its open alerts, if any: shown first, with what to do and Resolve. */
  alerts?: readonly Alert[] | undefined;
  /** Whether the viewer owns the collar: only its owner resolves its alerts (an admin sees them). */
  canResolve: boolean;
};

export function MonitoringCard({
  device,
  shown,
  now,
  showOwner,
  alerts,
  canResolve,
}: MonitoringCardProps) {
  // Freshness follows the latest reading itself, changed or not.
  const connected = isFresh(device.vitals_recorded_at, now);
  const flash = (field: ChangedField) =>
    shown.changed.includes(field) ? `${field}-${shown.version}` : undefined;
  const titleId = `monitoring-${device.id}`;
  // The heat-risk model judges every reading: it follows the cache the stream patches, not
  // only the changed readings the values follow, and an old judgement is not shown as now.
  const risk = connected ? device : null;

  return (
    <Card
      aria-labelledby={titleId}
      data-connection={connected ? 'connected' : 'disconnected'}
      className={cn('flex h-full flex-col', !connected && 'bg-slate-50 shadow-none')}
    >
      <CardHeader className="gap-1 pb-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <CardTitle as="h2" id={titleId} className="truncate" title={device.device_name}>
              {device.device_name}
            </CardTitle>
            <p className="font-mono text-sm text-muted-foreground">{device.device_id}</p>
          </div>
          <div className="flex shrink-0 flex-col items-end gap-1">
            <ConnectionBadge connected={connected} />
            {connected ? <CollarOffBadge device={device} /> : null}
          </div>
        </div>
        <p className="text-sm text-muted-foreground">
          {device.dog_name ? `On ${device.dog_name}` : 'Not on a pet'}
          {showOwner && device.owner_name ? ` · Owner: ${device.owner_name}` : null}
        </p>
      </CardHeader>
      <CardContent
        className={cn('grid flex-1 content-start gap-4', !connected && 'text-slate-600')}
      >
        <AlertsWithRisk alerts={alerts ?? []} risk={risk} now={now} canResolve={canResolve} />
        {shown.temperature_celsius === null ? (
          <div className="rounded-lg bg-muted p-3 text-sm">
            <p className="font-medium">No data available</p>
            <p className="text-muted-foreground">
              This collar has not sent a reading yet. Its values appear here as soon as it does.
            </p>
          </div>
        ) : (
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
            <VitalsFields
              temperatureLabel="Body temperature"
              temperature={shown.temperature_celsius}
              humidity={shown.humidity_percent}
              status={shown.vitals_status}
              heartRate={shown.heart_rate}
              activity={shown.activity_level}
              flash={flash}
            />
          </dl>
        )}
        {/* "Heat risk: low" beside an open heat alert would read as all clear: said only
            when no heat alert is open. */}
        {risk?.risk_band === 'SAFE' && !heatAlertOpen(alerts) ? <HeatRiskLow /> : null}
        <dl className="grid gap-2 text-sm">
          <div className="grid grid-cols-[5.5rem_1fr] items-center gap-2">
            <dt className="text-muted-foreground">Battery</dt>
            <dd>
              <BatteryMeter percent={device.battery_level} />
            </dd>
          </div>
          {connected ? null : (
            <div className="grid grid-cols-[5.5rem_1fr] items-center gap-2">
              <dt className="text-muted-foreground">Last reading</dt>
              <dd>{formatRelativeTime(device.vitals_recorded_at, now)}</dd>
            </div>
          )}
        </dl>
      </CardContent>
      <CardFooter>
        <Button variant="outline" size="sm" asChild>
          <Link
            to={deviceHistoryPath(device.id)}
            aria-label={`View history of ${device.device_name}`}
          >
            <ChartLine aria-hidden="true" />
            View history
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
