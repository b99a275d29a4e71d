import { useState } from 'react';
import { toast } from 'sonner';
import { KeyRound, RefreshCw } from 'lucide-react';
import { formatRelativeTime, type Device, type PrePopulatedDevice } from '@pawguard/shared';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadMore } from '@/components/load-more';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAllDevices } from '@/lib/api/get-all-devices';
import { useNow } from '@/lib/use-now';
import { RegistrationBadge } from './device-labels';
import { useRotateDeviceKey } from '../api/rotate-device-key';

/** The line under a device's ID: its name, MAC, owner and pet, as far as known. */
const detailsOf = (d: Device) =>
  [d.device_name, d.device_address, d.owner_name, d.dog_name].filter(Boolean).join(' · ');

const newestFirst = (a: Device, b: Device) => Date.parse(b.created_at) - Date.parse(a.created_at);

/** Every device, newest first, in a scroll area 96 units tall (spec section 2). */
export function FleetList({
  onKeyRotated,
}: {
  onKeyRotated: (device: PrePopulatedDevice) => void;
}) {
  const devices = useAllDevices();
  const rotate = useRotateDeviceKey();
  const [rotating, setRotating] = useState<Device | null>(null);
  const confirmRotate = () => {
    if (!rotating) return;
    rotate.mutate(rotating.id, {
      onSuccess: (device) => {
        toast.success(`New key issued for ${device.device_id}`);
        onKeyRotated(device);
        setRotating(null);
      },
      onError: (error) => {
        toast.error('Failed to issue a new key', { description: error.message });
        setRotating(null);
      },
    });
  };
  const now = useNow(30_000);
  const list = [...(devices.data ?? [])].sort(newestFirst);

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle as="h2">Existing Devices</CardTitle>
        <CardDescription>
          {devices.total !== undefined
            ? `${devices.total} device${devices.total === 1 ? '' : 's'}, newest first.`
            : 'Every device on the platform.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {devices.isPending ? (
          <div role="status" aria-label="Loading devices" className="grid gap-2">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-14 w-full" />
            ))}
          </div>
        ) : devices.isError ? (
          <div className="flex flex-col items-start gap-3">
            <p className="text-sm text-muted-foreground">
              Failed to fetch devices: {devices.error?.message}
            </p>
            <Button variant="outline" onClick={() => void devices.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </div>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No devices yet. Pre-populate the first collar above.
          </p>
        ) : (
          <ul
            className="max-h-96 divide-y overflow-y-auto rounded-lg border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            tabIndex={0}
            aria-label="Existing devices"
          >
            {list.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
                <div className="min-w-0">
                  <p className="font-mono text-sm font-semibold">{device.device_id}</p>
                  <p className="truncate text-xs text-muted-foreground" title={detailsOf(device)}>
                    {detailsOf(device)}
                  </p>
                </div>
                <div className="flex items-center gap-2 text-xs text-muted-foreground">
                  <span>Seen {formatRelativeTime(device.last_seen, now)}</span>
                  <RegistrationBadge status={device.registration_status} />
                  {/* An unregistered device has no key yet: pre-populating its ID gives it one. */}
                  {device.registration_status !== 'unregistered' ? (
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setRotating(device)}
                      aria-label={`New key for ${device.device_id}`}
                    >
                      <KeyRound aria-hidden="true" />
                      New key
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
        <LoadMore list={devices} noun="devices" />
      </CardContent>
      <ConfirmDialog
        open={rotating !== null}
        onClose={() => setRotating(null)}
        title={`Issue a new key for ${rotating?.device_id ?? 'this device'}?`}
        description="The collar's current key stops working at once. Load the new key onto the collar, or it cannot send readings."
        onConfirm={confirmRotate}
        pending={rotate.isPending}
        confirmLabel="Issue New Key"
        pendingLabel="Issuing..."
      />
    </Card>
  );
}
