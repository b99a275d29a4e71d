import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Plus, Radio, RefreshCw, Sparkles } from 'lucide-react';
import type { Device } from '@pawguard/shared';
import { OpenAlertsNotice } from '@/components/open-alerts-notice';
import { CardGridSkeleton } from '@/components/card-grid-skeleton';
import { PageHeader } from '@/components/page-header';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { alertsByDevice, useOpenAlerts } from '@/lib/api/alerts';
import { useDeleteDevice } from '../api/delete-device';
import { useDevices } from '@/lib/api/get-devices';
import { usePets } from '@/lib/api/get-pets';
import { useAuth } from '@/lib/auth';
import { collarAccess, ownPets } from '@/lib/pet-rights';
import { useNow } from '@/lib/use-now';
import { DeviceCard } from './device-card';
import { EditDeviceSheet } from './edit-device-sheet';
import { RegisterDeviceSheet } from './register-device-sheet';

export function DevicesPage() {
  const devices = useDevices();
  const pets = usePets();
  const { user } = useAuth();
  // Collars go on, and move between, the person's own pets only.
  const own = ownPets(pets.data ?? []);
  // The person's collars and those on pets shared with them: their open alerts, which every
  // member may resolve here too.
  const alertsQuery = useOpenAlerts();
  const openAlerts = alertsByDevice(alertsQuery.data?.alerts);
  const now = useNow(10_000);
  const [registering, setRegistering] = useState(false);
  const [editing, setEditing] = useState<Device | null>(null);
  const [deleting, setDeleting] = useState<Device | null>(null);

  const failed = devices.isError || pets.isError;
  useEffect(() => {
    if (failed) toast.error('Failed to load devices and pets', { id: 'load-devices' });
  }, [failed]);

  const list = devices.data ?? [];
  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Device Management"
        description="Register collars, name them, and see their battery and readings."
        actions={
          <>
            <Button variant="outline" asChild>
              <Link to={paths.registerDevice}>
                <Sparkles aria-hidden="true" />
                Auto-assign Collar
              </Link>
            </Button>
            <Button onClick={() => setRegistering(true)} disabled={!pets.data}>
              <Plus aria-hidden="true" />
              Register Device
            </Button>
          </>
        }
      />

      {devices.isPending || (pets.isPending && !failed) ? (
        <CardGridSkeleton label="Loading devices" />
      ) : failed ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <p className="font-semibold">We couldn&apos;t load your devices.</p>
            <p className="text-sm text-muted-foreground">
              {(devices.error ?? pets.error)?.message}
            </p>
            <Button
              variant="outline"
              onClick={() => {
                void devices.refetch();
                void pets.refetch();
              }}
            >
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </CardContent>
        </Card>
      ) : list.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <Radio className="size-10 text-primary" aria-hidden="true" />
            <h2 className="text-lg font-semibold">No devices yet</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              Register the collar your dog wears with the Device ID printed on it, or have a collar
              assigned to your pet.
            </p>
            <div className="flex flex-wrap justify-center gap-2">
              <Button onClick={() => setRegistering(true)}>
                <Plus aria-hidden="true" />
                Register Device
              </Button>
              <Button variant="outline" asChild>
                <Link to={paths.registerDevice}>Auto-assign Collar</Link>
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : (
        <>
          <OpenAlertsNotice alerts={alertsQuery} />
          <ul
            className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
            aria-label="Your devices"
          >
            {list.map((device) => (
              <li key={device.id}>
                <DeviceCard
                  device={device}
                  access={collarAccess(device, user?.id, pets.data)}
                  now={now}
                  alerts={openAlerts.get(device.id)}
                  onEdit={() => setEditing(device)}
                  onDelete={() => setDeleting(device)}
                />
              </li>
            ))}
          </ul>
        </>
      )}

      <RegisterDeviceSheet open={registering} onOpenChange={setRegistering} pets={own} />
      <EditDeviceSheet
        device={editing}
        access={editing ? collarAccess(editing, user?.id, pets.data) : null}
        pets={own}
        onOpenChange={(open) => {
          if (!open) setEditing(null);
        }}
      />
      <DeleteDeviceDialog device={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}

function DeleteDeviceDialog({ device, onClose }: { device: Device | null; onClose: () => void }) {
  const remove = useDeleteDevice();
  const confirm = () => {
    if (!device) return;
    remove.mutate(device.id, {
      onSuccess: () => {
        toast.success('Device deleted successfully!');
        onClose();
      },
      onError: (error) => {
        toast.error('Failed to delete device', { description: error.message });
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      open={device !== null}
      onClose={onClose}
      title={`Delete ${device?.device_name}?`}
      description={
        device?.registration_status === 'unregistered'
          ? // A device an admin never pre-populated has nothing to go back to: it is deleted.
            `${device.device_id} will be deleted from your account. You can register it again by its Device ID.`
          : `${device?.device_id} will be removed from your account and its readings deleted. The collar itself is released and can be registered again.`
      }
      onConfirm={confirm}
      pending={remove.isPending}
    />
  );
}
