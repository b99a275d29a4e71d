import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, LineChart } from 'lucide-react';
import {
  DEFAULT_HISTORY_RANGE,
  HISTORY_RANGES,
  isFresh,
  openingHistoryRange,
  type Device,
  type HistoryRange,
} from '@pawguard/shared';
import {
  CardAlerts,
  ConnectionBadge,
  LevelBlock,
  ReadingFacts,
  type CardReading,
} from '@/components/dog-status';
import { OpenAlertsNotice } from '@/components/open-alerts-notice';
import { useDeviceAlerts } from '@/lib/api/alerts';
import { LiveStatus } from '@/components/live-status';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useDevice } from '@/lib/api/get-device';
import { useDeviceHistory } from '@/lib/api/get-device-history';
import { useLatestVitals } from '@/lib/api/get-latest-vitals';
import { useAuth } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useLiveFallback } from '@/lib/realtime';
import { useNow } from '@/lib/use-now';
import { MONITORING_POLL_MS } from '../hooks/use-monitored-devices';
import { HistoryCharts } from './history-charts';
import { hasReadings } from './history-series';
import { HistoryTable } from './history-table';
import { TimeZoneNote } from '@/lib/display-units';
import { PastDeviceAlerts, useAlertPeriods } from './device-alerts';
import { RiskBacktestPanel } from './risk-backtest-panel';

const RANGES: { value: HistoryRange; label: string; words: string }[] = [
  { value: '1h', label: 'Last hour', words: 'the last hour' },
  { value: '24h', label: '24 hours', words: 'the last 24 hours' },
  { value: '7d', label: '7 days', words: 'the last 7 days' },
];
const isRange = (value: string | null): value is HistoryRange =>
  value !== null && Object.hasOwn(HISTORY_RANGES, value);

/**
 * One device's readings over the last hour, 24 hours or 7 days; the range is in the URL, and
 * without one it opens on the range that holds the collar's readings.
 */
export function DeviceHistoryPage({ deviceId }: { deviceId: string }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('range');
  const range = isRange(requested) ? requested : DEFAULT_HISTORY_RANGE;
  const fallback = useLiveFallback(MONITORING_POLL_MS);
  const device = useDevice(deviceId, { refetchIntervalMs: fallback });
  // Without a range in the address, History opens on the one that holds the collar's readings
  // (a new collar's first minutes: the last hour), judged once from the day's history (the
  // '24 hours' tab's own query) and kept in the address, so it does not jump as readings come.
  // An address that names a range needs no judging: the day is fetched only if that is its tab.
  const day = useDeviceHistory(deviceId, '24h', { enabled: !isRange(requested) });
  const latestReadingAt = device.data?.vitals_recorded_at ?? null;
  const decidable = !isRange(requested) && device.data !== undefined && !day.isPending;
  const dayHistory = day.data;
  useEffect(() => {
    if (!decidable) return;
    const opening = openingHistoryRange(dayHistory, latestReadingAt, Date.now());
    setParams(
      (current) => {
        if (isRange(current.get('range'))) return current;
        const next = new URLSearchParams(current);
        next.set('range', opening);
        return next;
      },
      { replace: true },
    );
  }, [decidable, dayHistory, latestReadingAt, setParams]);
  const { user } = useAuth();
  useDocumentTitle(device.data ? `${device.data.device_name} history` : 'Device history');

  const notFound = device.error instanceof ApiError && device.error.status === 404;
  return (
    <section aria-labelledby="page-title">
      <Link
        to={paths.monitoring}
        className="mb-3 inline-flex items-center gap-1 rounded-md text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Monitoring
      </Link>
      <PageHeader
        title={device.data?.device_name ?? 'Device history'}
        description={
          device.data
            ? `Readings history of ${device.data.device_id}${device.data.dog_name ? `, on ${device.data.dog_name}` : ''}.`
            : 'Temperature, humidity and heart rate over time.'
        }
      />

      {notFound ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <h2 className="text-lg font-semibold">Device not found</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              This device does not exist or is not one of yours.
            </p>
            <Button asChild variant="outline">
              <Link to={paths.monitoring}>Back to Monitoring</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-6">
          <LatestReading
            deviceId={deviceId}
            device={device.data}
            // Anyone but an admin sees a collar as its owner or in its pet's pack, and every
            // one of them resolves its alerts; an admin sees every collar, and resolves their own.
            canResolve={
              device.data !== undefined &&
              (device.data.user_id === user?.id || user?.role !== 'admin')
            }
          />
          <Tabs
            value={range}
            onValueChange={(value) => {
              if (!isRange(value)) return;
              setParams(
                (current) => {
                  const next = new URLSearchParams(current);
                  next.set('range', value);
                  return next;
                },
                { replace: true },
              );
            }}
          >
            <div className="flex flex-wrap items-center justify-between gap-3">
              <TabsList aria-label="Time range">
                {RANGES.map((r) => (
                  <TabsTrigger key={r.value} value={r.value}>
                    {r.label}
                  </TabsTrigger>
                ))}
              </TabsList>
              {range === '1h' ? <LiveStatus fallback="refreshing every 2 minutes" /> : null}
            </div>
            {RANGES.map((r) => (
              <TabsContent key={r.value} value={r.value}>
                <RangeHistory deviceId={deviceId} range={r.value} words={r.words} />
              </TabsContent>
            ))}
          </Tabs>
          <RiskBacktestPanel deviceId={deviceId} />
          <PastDeviceAlerts deviceId={deviceId} />
        </div>
      )}
    </section>
  );
}

function LatestReading({
  deviceId,
  device,
  canResolve,
}: {
  deviceId: string;
  device: Device | undefined;
  canResolve: boolean;
}) {
  const latest = useLatestVitals(deviceId, {
    refetchIntervalMs: useLiveFallback(MONITORING_POLL_MS),
  });
  const now = useNow(1_000);
  const reading = latest.data;
  // The same cache entry the stream writes: the collar's open alerts, each with Resolve.
  const alertsQuery = useDeviceAlerts(deviceId, false);
  const openAlerts = alertsQuery.data?.alerts ?? [];
  const shown: CardReading | null = reading
    ? {
        level: reading.status,
        thresholdStatus: reading.threshold_status,
        riskBand: reading.risk_band,
        riskReasons: reading.risk_reasons,
        recordedAt: reading.timestamp,
        temperature: reading.temperature,
        humidity: reading.humidity,
        heartRate: reading.heart_rate,
        activity: reading.activity_level,
        battery: reading.battery ?? device?.battery_level ?? null,
        collarOff: device?.collar_off ?? false,
      }
    : null;
  return (
    <Card role="region" aria-labelledby="latest-reading-title">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 pb-4">
        <CardTitle as="h2" id="latest-reading-title">
          Latest reading
        </CardTitle>
        {reading === undefined ? null : (
          <ConnectionBadge connected={isFresh(reading?.timestamp, now)} />
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        <OpenAlertsNotice alerts={alertsQuery} />
        {latest.isPending ? (
          <div role="status" aria-label="Loading the latest reading" className="grid gap-2">
            <Skeleton className="h-8 w-48" />
            <Skeleton className="h-4 w-64" />
          </div>
        ) : latest.isError && reading === undefined ? (
          <p className="text-sm text-muted-foreground">
            Failed to fetch data.{' '}
            <button
              type="button"
              className="font-medium text-primary underline-offset-4 hover:underline"
              onClick={() => void latest.refetch()}
            >
              Try Again
            </button>
          </p>
        ) : !shown ? (
          <p className="text-sm text-muted-foreground">
            No data available: this collar has not sent a reading yet.
          </p>
        ) : (
          <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <LevelBlock reading={shown} alerts={openAlerts} now={now} />
            <ReadingFacts reading={shown} now={now} />
          </div>
        )}
        {openAlerts.length > 0 ? (
          <div role="region" aria-label="Open alerts">
            <CardAlerts alerts={openAlerts} now={now} canResolve={canResolve} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function RangeHistory({
  deviceId,
  range,
  words,
}: {
  deviceId: string;
  range: HistoryRange;
  words: string;
}) {
  // The last hour is live: the stream folds each reading in; polling only while it is down.
  const fallback = useLiveFallback(MONITORING_POLL_MS);
  const history = useDeviceHistory(deviceId, range, {
    refetchIntervalMs: range === '1h' ? fallback : undefined,
  });
  const periods = useAlertPeriods(deviceId, useNow(60_000));

  if (history.isPending) {
    return (
      <div role="status" aria-label="Loading the charts" className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-72 lg:col-span-2" />
        <Skeleton className="h-72" />
        <Skeleton className="h-72" />
      </div>
    );
  }
  if (history.data === undefined) {
    return (
      <LoadError
        heading
        title="Failed to fetch data"
        message={history.error?.message}
        onRetry={() => void history.refetch()}
      />
    );
  }
  if (!hasReadings(history.data)) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <LineChart className="size-10 text-primary" aria-hidden="true" />
          <h2 className="text-lg font-semibold">No readings in {words}</h2>
          <p className="max-w-sm text-sm text-muted-foreground">
            The charts fill in as the collar sends readings. Try a longer range to see earlier ones.
          </p>
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="grid gap-4">
      <TimeZoneNote />
      <HistoryCharts history={history.data} alertPeriods={periods} />
      <HistoryTable history={history.data} />
    </div>
  );
}
