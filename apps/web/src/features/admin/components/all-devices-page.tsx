import { useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import { RefreshCw, Search } from 'lucide-react';
import { formatRelativeTime, isOnline, type Device } from '@pawguard/shared';
import { useDisplayUnits } from '@/lib/display-units';
import { CardGridSkeleton } from '@/components/card-grid-skeleton';
import { DeviceLevelWord, TEMPERATURE_LABEL } from '@/components/dog-status';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { BatteryMeter } from '@/components/ui/battery-meter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadMore } from '@/components/load-more';
import { useAllDevices } from '@/lib/api/get-all-devices';
import { useNow } from '@/lib/use-now';
import { ConnectionBadge, RegistrationBadge } from './device-labels';
import { filterDevices, type DeviceFilter } from './filter-devices';

const FILTERS: { value: DeviceFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unassigned', label: 'Unassigned' },
  { value: 'assigned', label: 'Assigned' },
  { value: 'active', label: 'Active' },
  { value: 'offline', label: 'Offline' },
];

export function AllDevicesPage() {
  const devices = useAllDevices();
  const now = useNow(30_000);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<DeviceFilter>('all');
  const [refreshing, setRefreshing] = useState(false);
  const ids = { search: useId(), filter: useId() };

  useEffect(() => {
    if (devices.isError)
      toast.error('Failed to fetch devices', {
        id: 'fetch-devices',
        description: devices.error?.message,
      });
  }, [devices.isError, devices.error]);

  const refresh = async () => {
    setRefreshing(true);
    const result = await devices.refetch();
    setRefreshing(false);
    if (!result.isError) toast.success('Refreshed', { description: 'Device data updated' });
  };

  const all = devices.data ?? [];
  const shown = filterDevices(all, search, filter, now);
  const counters = [
    // The total is the server's; the other counts are over the devices loaded so far. Each
    // status counts what its filter shows (Unassigned + Assigned + Active = all; Offline is
    // owned devices not heard from, of either of the last two).
    { label: 'Total', value: devices.total ?? all.length },
    { label: 'Online', value: all.filter((d) => isOnline(d.last_seen, now)).length },
    ...FILTERS.filter((f) => f.value !== 'all').map((f) => ({
      label: f.label,
      value: filterDevices(all, '', f.value, now).length,
    })),
  ];

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="All Devices"
        description="Every device on the platform, its owner, pet and latest readings."
        actions={
          <Button
            variant="outline"
            onClick={() => void refresh()}
            disabled={refreshing || devices.isPending}
          >
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} aria-hidden="true" />
            Refresh
          </Button>
        }
      />

      <ul
        className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
        aria-label="Device counts"
      >
        {counters.map((c) => (
          <li key={c.label}>
            <Card>
              <CardContent className="p-4">
                <p className="text-sm text-muted-foreground">{c.label}</p>
                {devices.data ? (
                  <p className="text-2xl font-bold tabular-nums">{c.value}</p>
                ) : devices.isError ? (
                  <p className="text-2xl font-bold text-muted-foreground">—</p>
                ) : (
                  <Skeleton className="mt-1 h-7 w-12" />
                )}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>

      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem]">
        <div className="grid gap-1.5">
          <Label htmlFor={ids.search} className="sr-only">
            Search devices
          </Label>
          <div className="relative">
            <Search
              className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id={ids.search}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search by Device ID, MAC, name, owner or pet"
              className="pl-9"
            />
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.filter} className="sr-only">
            Status
          </Label>
          <NativeSelect
            id={ids.filter}
            value={filter}
            onChange={(event) => setFilter(event.target.value as DeviceFilter)}
          >
            {FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      {devices.isPending ? (
        <CardGridSkeleton label="Loading devices" />
      ) : devices.isError ? (
        <LoadError
          title="Failed to fetch devices"
          message={devices.error?.message ?? ''}
          onRetry={() => void devices.refetch()}
        />
      ) : shown.length === 0 ? (
        <Card>
          <CardContent className="p-10 text-center text-sm text-muted-foreground">
            {all.length === 0
              ? 'No devices yet. Pre-populate collars in the Admin Portal.'
              : search.trim() === ''
                ? 'No devices match these filters.'
                : 'No devices match your search.'}
          </CardContent>
        </Card>
      ) : (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            Showing {shown.length} of {all.length} devices
            {devices.hasMore ? ` loaded (${devices.total} in all)` : ''}
          </p>
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Devices">
            {shown.map((device) => (
              <li key={device.id}>
                <AdminDeviceCard device={device} now={now} />
              </li>
            ))}
          </ul>
        </>
      )}
      <LoadMore list={devices} noun="devices" count={false} />
    </section>
  );
}

function AdminDeviceCard({ device, now }: { device: Device; now: number }) {
  const c = device.temperature_celsius;
  const { temperature } = useDisplayUnits();
  return (
    <Card className="h-full" aria-labelledby={`admin-device-${device.id}`}>
      <CardHeader className="gap-2 pb-3">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <CardTitle as="h2" id={`admin-device-${device.id}`} className="font-mono">
              {device.device_id}
            </CardTitle>
            <p className="truncate text-sm text-muted-foreground" title={device.device_name}>
              {device.device_name}
            </p>
          </div>
          <ConnectionBadge lastSeen={device.last_seen} now={now} />
        </div>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-[6.5rem_1fr] items-center gap-x-2 gap-y-1.5 text-sm">
          {/* One vocabulary (DESIGN §3): the registration state and the device's status, each
              named, so neither reads as a verdict on the connection above. */}
          <dt className="text-muted-foreground">Registration</dt>
          <dd>
            <RegistrationBadge status={device.registration_status} />
          </dd>
          <dt className="text-muted-foreground">Device status</dt>
          <dd className="capitalize">
            {device.status} · {device.device_type}
          </dd>
          <dt className="text-muted-foreground">Owner</dt>
          <dd className="truncate" title={device.owner_name ?? undefined}>
            {device.owner_name ?? '—'}
          </dd>
          <dt className="text-muted-foreground">Pet</dt>
          <dd className="truncate" title={device.dog_name ?? undefined}>
            {device.dog_name ?? '—'}
          </dd>
          <dt className="text-muted-foreground">MAC</dt>
          <dd className="truncate font-mono text-xs" title={device.device_address ?? undefined}>
            {device.device_address ?? '—'}
          </dd>
          <dt className="text-muted-foreground">{TEMPERATURE_LABEL}</dt>
          <dd className="tabular-nums">{c === null ? '—' : temperature(c)}</dd>
          {/* The owner's rule and words (DESIGN "Freshness"): a level from a reading 2 minutes
              old or more is "Last known", dimmed, not the dog's state now. */}
          <dt className="text-muted-foreground">Safe zone</dt>
          <dd>{device.vitals_status ? <DeviceLevelWord device={device} now={now} /> : '—'}</dd>
          <dt className="text-muted-foreground">Battery</dt>
          <dd>
            <BatteryMeter percent={device.battery_level} />
          </dd>
          <dt className="text-muted-foreground">Last seen</dt>
          <dd>{formatRelativeTime(device.last_seen, now)}</dd>
        </dl>
      </CardContent>
    </Card>
  );
}
