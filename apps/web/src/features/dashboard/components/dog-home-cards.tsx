import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRight, PawPrint } from 'lucide-react';
import { isFresh, petAvatar, type Alert, type Device, type Dog } from '@pawguard/shared';
import {
  CardAlerts,
  ConnectionBadge,
  LevelBlock,
  ReadingFacts,
  deviceReading,
  showsAboveSafe,
  worry,
  worstFirst,
} from '@/components/dog-status';
import { DogActivity } from '@/components/dog-activity';
import { SharedPetBadge } from '@/components/shared-pet-badge';
import { petRights } from '@/lib/pet-rights';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { addPetPath, deviceHistoryPath, paths } from '@/config/paths';
import { OpenAlertsNotice } from '@/components/open-alerts-notice';
import { alertsByDevice, openAlertsOfPet, useOpenAlerts } from '@/lib/api/alerts';
import { useDevices } from '@/lib/api/get-devices';
import { usePets } from '@/lib/api/get-pets';
import { useLiveFallback } from '@/lib/realtime';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { dogHomeState, type DogHomeState, type KnownCollars } from './dog-home-state';

/** Spec section 9's Monitoring poll, used here too while the live stream is down. */
const POLL_MS = 120_000;

/**
 * One card per dog, above the dashboard's links (`children`): the first thing an owner sees
 * on a phone. Each shows the dog's state at a glance, its latest values and how old they are,
 * live from the stream (the devices cache it patches) with polling while the stream is down.
 */
export function DogHomeCards({ children }: { children?: ReactNode }) {
  const pets = usePets();
  const devices = useDevices({ refetchIntervalMs: useLiveFallback(POLL_MS) });
  return (
    <>
      <DogCards pets={pets} devices={devices} />
      {/* What follows the cards comes once their pets and collars are known: shown earlier, it
          would jump down the page as the cards fill in (a layout shift on a slow phone). */}
      {!pets.isPending && !devices.isPending ? children : null}
    </>
  );
}

function DogCards({
  pets,
  devices,
}: {
  pets: ReturnType<typeof usePets>;
  devices: ReturnType<typeof useDevices>;
}) {
  const now = useNow(1_000);
  const alertsQuery = useOpenAlerts();
  const openAlerts = alertsByDevice(alertsQuery.data?.alerts);
  // A failed refetch keeps the last list; only a list never loaded is unknown.
  const collars: KnownCollars = devices.data ?? (devices.isError ? 'failed' : 'pending');
  const collarList: readonly Device[] | undefined =
    typeof collars === 'string' ? undefined : collars;

  if (pets.isPending) {
    return (
      <div
        aria-busy="true"
        aria-label="Loading your dogs"
        className="mb-6 grid gap-4 sm:grid-cols-2"
      >
        <Skeleton className="h-40 rounded-xl" />
        <Skeleton className="hidden h-40 rounded-xl sm:block" />
      </div>
    );
  }
  // The links below still work; a failed look-up here must not hide them.
  if (pets.isError) {
    return (
      <LoadFailed className="mb-6" onRetry={() => void pets.refetch()}>
        Your dogs could not be loaded just now.
      </LoadFailed>
    );
  }
  if (pets.data.length === 0) {
    return (
      <Card className="mb-6 flex flex-col items-start gap-3 p-5 sm:flex-row sm:items-center">
        <PawPrint className="size-6 text-orange-600" aria-hidden="true" />
        <p className="flex-1 text-sm">
          Add your dog and put a collar on them to see how they are doing right here.
        </p>
        <Link
          to={addPetPath}
          className="inline-flex min-h-11 items-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground"
        >
          Add a pet
        </Link>
      </Card>
    );
  }
  // Worst dog first, by name among equals: the order Monitoring uses too.
  const cards = worstFirst(
    pets.data.map((dog) => {
      const state = dogHomeState(dog.id, collars, now);
      return {
        dog,
        state,
        alerts: openAlertsOfPet(dog.id, collarList, openAlerts),
      };
    }),
    ({ state, alerts }) => homeWorry(state, alerts, now),
    ({ dog }) => dog.name,
  );
  return (
    <section aria-labelledby="dogs-heading" className="mb-6">
      <h2 id="dogs-heading" className="sr-only">
        Your dogs now
      </h2>
      {collars === 'failed' ? (
        // Said once for every card: whether a dog wears a collar is not known, not "none".
        <LoadFailed className="mb-4" onRetry={() => void devices.refetch()}>
          Your collars could not be loaded just now, so their readings are not shown.
        </LoadFailed>
      ) : null}
      <OpenAlertsNotice alerts={alertsQuery} />
      <ul className="grid gap-4 sm:grid-cols-2">
        {cards.map(({ dog, state, alerts }) => (
          <li key={dog.id}>
            {/* The caller's own dogs: theirs to resolve. */}
            <DogHomeCard dog={dog} state={state} alerts={alerts} now={now} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * How worried to be about a dog on the dashboard (worst first). A dog whose collar has sent
 * nothing yet, or whose collars could not be loaded ("Not known"), is not known to be safe
 * either: it ranks with the stale ones, above Safe.
 */
export function homeWorry(state: DogHomeState, alerts: readonly Alert[], now: number): number {
  if (state.kind === 'waiting' || state.kind === 'unknown')
    return Math.max(2, worry(null, alerts, now));
  return worry(state.collar ? deviceReading(state.collar) : null, alerts, now);
}

/** What a card says where there is no reading to show. */
function footnote(state: DogHomeState): string | null {
  switch (state.kind) {
    case 'checking':
      return 'Looking for its collar…';
    case 'unknown':
      return 'Its collar could not be loaded just now.';
    case 'no-collar':
      return 'Put a collar on this dog to see live readings.';
    case 'waiting':
      return 'Waiting for the first reading';
    default:
      return null;
  }
}

/** The word a card without a reading shows in the level's place. */
const NO_READING_WORD: Partial<Record<DogHomeState['kind'], string>> = {
  checking: 'Checking…',
  unknown: 'Not known',
  'no-collar': 'No collar',
  waiting: 'Waiting for data',
};

function DogHomeCard({
  dog,
  state,
  alerts,
  now,
}: {
  dog: Dog;
  state: DogHomeState;
  alerts: Alert[];
  now: number;
}) {
  const collar = state.collar;
  const titleId = `dog-home-${dog.id}`;
  const reading = collar && collar.vitals_recorded_at !== null ? deviceReading(collar) : null;
  const word = NO_READING_WORD[state.kind];
  const note = footnote(state);
  // With a collar the name opens its history; without one, Devices, to put one on.
  return (
    <article
      aria-labelledby={titleId}
      data-state={state.kind}
      className="grid h-full content-start gap-3 rounded-xl border bg-card p-4 shadow-sm"
    >
      <div className="flex items-center gap-3">
        <span className="text-3xl" aria-hidden="true">
          {petAvatar(dog.id)}
        </span>
        <h3 id={titleId} className="min-w-0 flex-1 truncate text-lg font-semibold" title={dog.name}>
          <Link
            to={collar ? deviceHistoryPath(collar.id) : paths.devices}
            className="inline-flex min-h-11 max-w-full items-center gap-1 rounded-md underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="truncate">{dog.name}</span>
            <ChevronRight className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          </Link>
        </h3>
        {reading ? <ConnectionBadge connected={isFresh(reading.recordedAt, now)} /> : null}
      </div>
      <SharedPetBadge
        access={dog.access}
        ownerName={dog.owner_name}
        className="justify-self-start"
      />
      {word ? (
        <p
          className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-xl font-bold text-slate-700"
          data-state={state.kind}
        >
          {word}
        </p>
      ) : null}
      {reading ? (
        <>
          <LevelBlock reading={reading} alerts={alerts} now={now} />
          {reading.temperature === null ? null : <ReadingFacts reading={reading} now={now} />}
        </>
      ) : null}
      {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
      <CardAlerts alerts={alerts} now={now} canResolve />
      {/* A dog that wears a collar: its day against its goal (nothing of it without one). */}
      {collar ? (
        <DogActivity
          dogId={dog.id}
          dogName={dog.name}
          canEditGoal={petRights(dog).manage}
          aboveSafe={showsAboveSafe(reading, alerts)}
        />
      ) : null}
    </article>
  );
}

/** A list that failed to load, said plainly, with a way to ask again. */
function LoadFailed({
  className,
  onRetry,
  children,
}: {
  className: string;
  onRetry: () => void;
  children: ReactNode;
}) {
  return (
    <p
      role="alert"
      className={cn('rounded-lg border p-4 text-sm text-muted-foreground', className)}
    >
      {children}{' '}
      <button
        type="button"
        className="font-medium text-foreground underline underline-offset-2"
        onClick={onRetry}
      >
        Try again
      </button>
    </p>
  );
}
