import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { toast } from 'sonner';
import { Plus, Radio, RefreshCw } from 'lucide-react';
import { CardGridSkeleton } from '@/components/card-grid-skeleton';
import { LiveStatus } from '@/components/live-status';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { getPetsQueryOptions } from '@/lib/api/get-pets';
import { collarAccess, rightsOf } from '@/lib/pet-rights';
import { useDisplayUnits } from '@/lib/display-units';
import { useNow } from '@/lib/use-now';
import { useMonitoredDevices } from '../hooks/use-monitored-devices';
import { useShownReadings } from '../hooks/use-shown-readings';
import { MonitoringCard } from './monitoring-card';
import { OpenAlertsNotice } from '@/components/open-alerts-notice';
import { StaleNotice } from '@/components/stale-notice';
import { alertsByDevice, useOpenAlerts } from '@/lib/api/alerts';
import { LoadMore } from '@/components/load-more';
import { deviceReading, worry, worstFirst } from '@/components/dog-status';

/**
 * `/monitoring#collar-<id>`, where a pushed alert's "Open" leads: once that collar's card is on
 * the page (its readings may arrive well after the page), it is scrolled into view below the
 * header and focused, once for each such address.
 */
function useCardOfHash() {
  const { hash } = useLocation();
  const done = useRef<string | null>(null);
  // After every render: the card may come with any of them.
  useEffect(() => {
    if (!hash.startsWith('#collar-') || done.current === hash) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return;
    }
    const card = document.getElementById(id);
    if (!card) return;
    done.current = hash;
    card.scrollIntoView({ block: 'start' });
    card.focus({ preventScroll: true });
  });
}

/** Connected turns Disconnected within a second of the reading turning 2 minutes old. */
const CLOCK_TICK_MS = 1_000;

export function MonitoringPage() {
  const { isAdmin, user } = useAuth();
  const devices = useMonitoredDevices();
  // What the person is to each collar's pet (their own, or shared with them as what).
  const pets = useQuery({ ...getPetsQueryOptions(), enabled: !isAdmin });
  const shown = useShownReadings(devices.data, devices.dataUpdatedAt);
  const alertsQuery = useOpenAlerts();
  const openAlerts = alertsByDevice(alertsQuery.data?.alerts);
  const now = useNow(CLOCK_TICK_MS);
  const { timeSeconds, timeZoneNote } = useDisplayUnits();
  const [refreshing, setRefreshing] = useState(false);
  useCardOfHash();

  const refresh = async () => {
    setRefreshing(true);
    const result = await devices.refetch();
    setRefreshing(false);
    if (result.isError) {
      toast.error('Failed to fetch data', { description: result.error.message });
      return;
    }
    toast.success('Refreshed', { description: 'Device data updated' });
  };

  // Moves only when what is shown changes (DESIGN §3): a Refresh that brings the same
  // readings confirms them without pretending they are new.
  const lastUpdated = shown.lastUpdated;
  // Worst dog first (then by name), the order the dashboard uses too.
  const list = worstFirst(
    devices.data ?? [],
    (d) => worry(deviceReading(d), openAlerts.get(d.id), now),
    // By the dog's name, then the collar's.
    (d) => `${d.dog_name ?? ''}\u0000${d.device_name}`,
  );

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Device Monitoring Dashboard"
        description={
          isAdmin
            ? 'Live body temperature, humidity and safe-zone status from every device on the platform.'
            : 'Live body temperature, humidity and safe-zone status from your collars.'
        }
        actions={
          <Button
            variant="outline"
            onClick={() => void refresh()}
            disabled={refreshing || devices.isPending}
          >
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} aria-hidden="true" />
            Refresh Data
          </Button>
        }
      />
      <div className="-mt-3 mb-6 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <p className="text-muted-foreground">
          Last updated:{' '}
          <time
            dateTime={lastUpdated ? new Date(lastUpdated).toISOString() : undefined}
            className="font-medium text-foreground tabular-nums"
          >
            {lastUpdated ? timeSeconds(lastUpdated) : 'Never'}
          </time>
          {timeZoneNote ? <span className="text-xs"> · {timeZoneNote}</span> : null}
        </p>
        {/* Live updates refresh the cards shown: with none loaded there is nothing live. */}
        {devices.data === undefined ? null : <LiveStatus fallback="refreshing every 2 minutes" />}
      </div>

      {devices.isPending ? (
        <CardGridSkeleton label="Loading devices" />
      ) : devices.data === undefined ? (
        <LoadError
          heading
          title="Failed to fetch data"
          message={devices.error?.message}
          onRetry={() => void devices.refetch()}
        />
      ) : list.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <Radio className="size-10 text-primary" aria-hidden="true" />
            <h2 className="text-lg font-semibold">No Devices Found</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              {isAdmin
                ? 'No device is on the platform yet.'
                : 'Register the collar your dog wears to watch its readings here.'}
            </p>
            <Button asChild>
              <Link to={paths.devices}>
                <Plus aria-hidden="true" />
                Add Device
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <>
          {devices.isError && !refreshing ? (
            <StaleNotice
              title="Failed to fetch data."
              action={
                <Button variant="outline" size="sm" onClick={() => void devices.refetch()}>
                  Try Again
                </Button>
              }
            >
              Showing the last values received.
            </StaleNotice>
          ) : null}
          <OpenAlertsNotice alerts={alertsQuery} />
          <ul
            className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
            aria-label="Monitored devices"
          >
            {list.map((device) => {
              const reading = shown.byDevice.get(device.id);
              const access = collarAccess(device, user?.id, pets.data);
              const rights = rightsOf(access);
              return reading ? (
                <li key={device.id}>
                  <MonitoringCard
                    device={device}
                    shown={reading}
                    now={now}
                    showOwner={isAdmin}
                    alerts={openAlerts.get(device.id)}
                    access={access}
                    canResolve={rights.acknowledge}
                    canEditGoal={rights.manage}
                  />
                </li>
              ) : null;
            })}
          </ul>
          {devices.paged ? <LoadMore list={devices.paged} noun="devices" /> : null}
        </>
      )}
    </section>
  );
}
