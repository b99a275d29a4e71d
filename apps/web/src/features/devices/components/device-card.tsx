import { Link } from 'react-router';
import { ChartLine, CircleCheck, Clock, Pencil, Trash2, Wrench } from 'lucide-react';
import {
  customerLabel,
  formatOneDecimal,
  formatRelativeTime,
  isFresh,
  type Alert,
  type CustomerLabel,
  type Device,
  type PetAccess,
} from '@pawguard/shared';
import { Temperature } from '@/lib/display-units';
import {
  CardAlerts,
  DeviceLevelWord,
  ReadingAge,
  TEMPERATURE_LABEL,
  WhyAndWhatToDo,
  deviceReading,
  openHeatAlert,
} from '@/components/dog-status';
import { useAuth } from '@/lib/auth';
import { rightsOf } from '@/lib/pet-rights';
import { SharedPetBadge } from '@/components/shared-pet-badge';
import { Badge } from '@/components/ui/badge';
import { BatteryMeter } from '@/components/ui/battery-meter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { deviceHistoryPath } from '@/config/paths';
import { SetupSteps } from './setup-steps';

const LABEL_LOOK: Record<
  CustomerLabel,
  { text: string; variant: 'muted' | 'secondary' | 'success' | 'warning' }
> = {
  unregistered: { text: 'Unregistered', variant: 'warning' },
  registered: { text: 'Registered', variant: 'secondary' },
  active: { text: 'Active', variant: 'success' },
  inactive: { text: 'Inactive', variant: 'muted' },
};

type DeviceCardProps = {
  device: Device;
  /**
   * What the viewer is to the collar (its pet's access; DeviceCard's actions follow it): a
   * caregiver neither edits nor deletes it, a co-owner edits it. Null: not known yet. Its
   * owner unless said.
   */
  access?: PetAccess | null;
  now: number;
  /** Its open alerts, heat first: the status badge alone may say SAFE while one is open. */
  alerts?: readonly Alert[] | undefined;
  onEdit: () => void;
  onDelete: () => void;
};

export function DeviceCard({
  device,
  access = 'owner',
  now,
  alerts = [],
  onEdit,
  onDelete,
}: DeviceCardProps) {
  const label = customerLabel(device);
  const look = LABEL_LOOK[label];
  const { isAdmin } = useAuth();
  const rights = rightsOf(access);
  const sharedBy = access !== null && access !== 'owner' ? device.owner_name : null;
  return (
    <Card className="flex h-full flex-col" aria-labelledby={`device-${device.id}`}>
      <CardHeader className="gap-2 pb-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <CardTitle
              as="h2"
              id={`device-${device.id}`}
              className="truncate"
              title={device.device_name}
            >
              {device.device_name}
            </CardTitle>
            <p className="font-mono text-sm text-muted-foreground">{device.device_id}</p>
          </div>
          <Badge variant={look.variant}>{look.text}</Badge>
        </div>
        <p className="text-sm">
          {device.dog_name ? (
            <>
              On <span className="font-medium">{device.dog_name}</span>
            </>
          ) : (
            <span className="text-muted-foreground">Not on a pet</span>
          )}
        </p>
        <SharedPetBadge access={access} ownerName={device.owner_name} className="self-start" />
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-4">
        {label === 'unregistered' ? (
          <div className="grid gap-2 rounded-lg bg-amber-50 p-3 text-amber-950">
            <p className="flex items-center gap-2 text-sm font-semibold">
              <Wrench className="size-4" aria-hidden="true" />
              Set up your collar
            </p>
            <SetupSteps deviceId={device.device_id} />
            <p className="text-xs">
              An admin must pre-populate this Device ID before the collar can send readings.
            </p>
          </div>
        ) : (
          <>
            <ConnectionNote device={device} now={now} sharedBy={sharedBy} />
            {/* A heat alert's why and what to do are the card's (below), said once. */}
            <CardAlerts alerts={alerts} now={now} canResolve />
            <Vitals device={device} now={now} alert={openHeatAlert(alerts)} />
          </>
        )}
        <dl className="grid gap-2 text-sm">
          <div className="grid grid-cols-[5.5rem_1fr] items-center gap-2">
            <dt className="text-muted-foreground">Battery</dt>
            <dd>
              <BatteryMeter percent={device.battery_level} />
            </dd>
          </div>
          <div className="grid grid-cols-[5.5rem_1fr] items-center gap-2">
            <dt className="text-muted-foreground">Last seen</dt>
            <dd className="flex items-center gap-1">
              <Clock className="size-3.5 text-muted-foreground" aria-hidden="true" />
              {/* 'Never' beside 'Device Connected' read as a contradiction. */}
              {device.last_seen === null
                ? 'Waiting for the first reading'
                : formatRelativeTime(device.last_seen, now)}
            </dd>
          </div>
          {/* The firmware is an admin's concern (how the collar was built), not an owner's. */}
          {isAdmin && device.firmware_version ? (
            <div className="grid grid-cols-[5.5rem_1fr] items-center gap-2">
              <dt className="text-muted-foreground">Firmware</dt>
              <dd className="font-mono">{device.firmware_version}</dd>
            </div>
          ) : null}
        </dl>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        {label === 'unregistered' ? null : (
          <Button variant="outline" size="sm" asChild>
            <Link to={deviceHistoryPath(device.id)} aria-label={`History of ${device.device_name}`}>
              <ChartLine aria-hidden="true" />
              History
            </Link>
          </Button>
        )}
        {rights.manage ? (
          <Button
            variant="outline"
            size="sm"
            onClick={onEdit}
            aria-label={`Edit ${device.device_name}`}
          >
            <Pencil aria-hidden="true" />
            Edit
          </Button>
        ) : null}
        {rights.remove ? (
          <Button
            variant="outline"
            size="sm"
            onClick={onDelete}
            aria-label={`Delete ${device.device_name}`}
            className="text-destructive hover:text-destructive"
          >
            <Trash2 aria-hidden="true" />
            Delete
          </Button>
        ) : null}
        {access !== null && !rights.manage ? (
          <p className="w-full text-xs text-muted-foreground">
            Only {device.owner_name ?? 'its owner'} and co-owners change this collar.
          </p>
        ) : null}
      </CardFooter>
    </Card>
  );
}

/**
 * Spec section 4's 'Device Connected' note (DESIGN "Fine print": an owned collar that has
 * not reported itself), said only while it is true: while its latest reading is fresh, as
 * Monitoring's Connected. A collar that never sent a reading is waiting for its first one,
 * with the setup steps on demand; one gone quiet says nothing here (Last seen says when).
 */
function ConnectionNote({
  device,
  now,
  sharedBy,
}: {
  device: Device;
  now: number;
  /** The owner of a collar shared with the viewer; null for their own. */
  sharedBy: string | null;
}) {
  const account = sharedBy ? `${sharedBy}'s account` : 'your account';
  if (device.firmware_version !== null) return null;
  if (device.last_seen === null)
    return (
      <div className="grid gap-1 rounded-lg bg-slate-50 p-3 text-slate-900">
        <p className="flex items-center gap-2 text-sm font-semibold">
          <Clock className="size-4" aria-hidden="true" />
          Waiting for the first reading
        </p>
        <p className="text-xs">
          The collar is registered to {account}. It starts sending readings once it is powered on
          and on your WiFi.
        </p>
        <details className="text-xs">
          <summary className="inline-flex min-h-8 cursor-pointer items-center font-medium">
            How to set it up
          </summary>
          <div className="mt-2">
            <SetupSteps deviceId={device.device_id} />
          </div>
        </details>
      </div>
    );
  if (!isFresh(device.vitals_recorded_at, now)) return null;
  return (
    <div className="grid gap-1 rounded-lg bg-green-50 p-3 text-green-950">
      <p className="flex items-center gap-2 text-sm font-semibold">
        <CircleCheck className="size-4" aria-hidden="true" />
        Device Connected
      </p>
      <p className="text-xs">The collar is registered to {account} and is sending readings.</p>
    </div>
  );
}

function Vitals({ device, now, alert }: { device: Device; now: number; alert: Alert | undefined }) {
  if (device.temperature_celsius === null) {
    return (
      <p className="rounded-lg bg-muted p-3 text-sm text-muted-foreground">No vitals data yet</p>
    );
  }
  return (
    <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted p-3 text-sm">
      <div className="col-span-2">
        <dt className="text-muted-foreground">Safe zone</dt>
        <dd>
          <DeviceLevelWord device={device} now={now} />
          {/* Why describes the reading shown, as on every other card (decision 0042). */}
          <WhyAndWhatToDo
            reading={deviceReading(device)}
            alert={alert}
            now={now}
            className="mt-1"
          />
        </dd>
      </div>
      <div className="col-span-2">
        <dt className="text-muted-foreground">{TEMPERATURE_LABEL}</dt>
        <dd className="font-semibold tabular-nums">
          <Temperature celsius={device.temperature_celsius} />
        </dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Humidity</dt>
        <dd className="font-semibold tabular-nums">
          {device.humidity_percent === null ? '—' : `${formatOneDecimal(device.humidity_percent)}%`}
        </dd>
      </div>
      {device.heart_rate !== null ? (
        <div>
          <dt className="text-muted-foreground">Heart rate</dt>
          <dd className="font-semibold tabular-nums">{device.heart_rate} bpm</dd>
        </div>
      ) : null}
      {device.activity_level !== null ? (
        <div>
          <dt className="text-muted-foreground">Activity level</dt>
          <dd className="font-semibold tabular-nums">{device.activity_level}%</dd>
        </div>
      ) : null}
      <div className="col-span-2 text-muted-foreground">
        <dt className="sr-only">Reading age</dt>
        <dd>
          <ReadingAge recordedAt={device.vitals_recorded_at} now={now} />
        </dd>
      </div>
    </dl>
  );
}
