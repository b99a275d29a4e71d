import { Link } from 'react-router';
import { ChartLine } from 'lucide-react';
import { isFresh, type Alert, type Device, type PetAccess } from '@pawguard/shared';
import {
  CardAlerts,
  ConnectionBadge,
  LevelBlock,
  ReadingFacts,
  deviceReading,
  showsAboveSafe,
  type CardReading,
} from '@/components/dog-status';
import { DogActivity } from '@/components/dog-activity';
import { SharedPetBadge } from '@/components/shared-pet-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { deviceHistoryPath } from '@/config/paths';
import { cn } from '@/lib/utils';
import type { ChangedField, ShownReading } from './reading-change';

/** A collar's card's element id: the fragment of monitoringCardPath in the shared contract. */
export const collarCardId = (deviceId: string) => `collar-${deviceId}`;

type MonitoringCardProps = {
  device: Device;
  /** The values to show: they follow changed readings only (spec section 4). */
  shown: ShownReading;
  now: number;
  showOwner: boolean;
  /** Its open alerts, if any, each with Resolve; a heat alert's why is the card's own. */
  alerts?: readonly Alert[] | undefined;
  /**
   * Whether the viewer may resolve its alerts: its owner and its pet's pack may (an admin who
   * is neither only sees them).
   */
  canResolve: boolean;
  /** Whether the viewer may set the dog's goal: its owner and co-owners. */
  canEditGoal?: boolean;
  /** What the viewer is to the collar's pet: a shared one says whose it is. */
  access?: PetAccess | null;
};

export function MonitoringCard({
  device,
  shown,
  now,
  showOwner,
  alerts,
  canResolve,
  canEditGoal = canResolve,
  access = null,
}: MonitoringCardProps) {
  // Freshness follows the latest reading itself, changed or not.
  const connected = isFresh(device.vitals_recorded_at, now);
  const flash = (field: ChangedField) =>
    shown.changed.includes(field) ? `${field}-${shown.version}` : undefined;
  const titleId = `monitoring-${device.id}`;
  // The values follow the changed readings (spec section 4); the level's reasons and the
  // reading's age follow every reading, as the cache the stream patches does.
  const reading: CardReading = {
    ...deviceReading(device),
    level: shown.vitals_status,
    temperature: shown.temperature_celsius,
    humidity: shown.humidity_percent,
    heartRate: shown.heart_rate,
    activity: shown.activity_level,
  };

  return (
    <Card
      // A pushed alert's "Open" leads here (/monitoring#collar-…): the page focuses the card.
      id={collarCardId(device.id)}
      tabIndex={-1}
      aria-labelledby={titleId}
      data-connection={connected ? 'connected' : 'disconnected'}
      className={cn(
        'flex h-full scroll-mt-20 flex-col focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
        !connected && 'bg-slate-50 shadow-none',
      )}
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
          </div>
        </div>
        <p className="text-sm text-muted-foreground">
          {device.dog_name ? `On ${device.dog_name}` : 'Not on a pet'}
          {showOwner && device.owner_name ? ` · Owner: ${device.owner_name}` : null}
        </p>
        <SharedPetBadge access={access} ownerName={device.owner_name} className="self-start" />
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-4">
        {shown.temperature_celsius === null ? (
          <div className="rounded-lg bg-muted p-3 text-sm">
            <p className="font-medium">No data available</p>
            <p className="text-muted-foreground">
              This collar has not sent a reading yet. Its values appear here as soon as it does.
            </p>
          </div>
        ) : (
          <>
            <LevelBlock reading={reading} alerts={alerts} now={now} flashKey={flash('status')} />
            <ReadingFacts
              reading={reading}
              now={now}
              flash={flash}
              className={cn(!connected && 'text-slate-600')}
            />
          </>
        )}
        <CardAlerts alerts={alerts ?? []} now={now} canResolve={canResolve} />
        {/* The dog's day against its goal; its owner sets the goal, an admin only looks. */}
        {device.dog_id ? (
          <DogActivity
            dogId={device.dog_id}
            dogName={device.dog_name ?? 'This dog'}
            canEditGoal={canEditGoal}
            aboveSafe={showsAboveSafe(reading, alerts)}
          />
        ) : null}
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
