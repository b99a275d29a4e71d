import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronRight, PawPrint } from 'lucide-react';
import {
  formatOneDecimal,
  formatRelativeTime,
  isFresh,
  isVitalsStatus,
  petAvatar,
  type Device,
  type Dog,
} from '@pawguard/shared';
import { useDisplayUnits } from '@/lib/display-units';
import { AlertsWithRisk } from '@/components/alerts-with-risk';
import { CollarOffBadge } from '@/components/collar-off-badge';
import { BatteryMeter } from '@/components/ui/battery-meter';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { deviceHistoryPath, paths } from '@/config/paths';
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

const LOOK: Record<DogHomeState['kind'], { label: string; className: string }> = {
  SAFE: { label: 'Safe', className: 'bg-green-50 text-green-800 border-green-200' },
  WARNING: { label: 'Warning', className: 'bg-amber-50 text-amber-900 border-amber-300' },
  DANGER: { label: 'Danger', className: 'bg-orange-50 text-orange-900 border-orange-300' },
  CRITICAL: { label: 'Critical', className: 'bg-red-50 text-red-900 border-red-300' },
  checking: { label: 'Checking…', className: 'bg-slate-50 text-slate-700 border-slate-200' },
  unknown: { label: 'Not known', className: 'bg-slate-50 text-slate-700 border-slate-200' },
  'no-collar': { label: 'No collar', className: 'bg-slate-50 text-slate-700 border-slate-200' },
  disconnected: {
    label: 'Disconnected',
    className: 'bg-slate-50 text-slate-700 border-slate-200',
  },
  waiting: {
    label: 'Waiting for data',
    className: 'bg-slate-50 text-slate-700 border-slate-200',
  },
};

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
          to={paths.myPets}
          className="rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground"
        >
          Add a pet
        </Link>
      </Card>
    );
  }
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
        {pets.data.map((dog) => {
          const state = dogHomeState(dog.id, collars, now);
          // A fresh reading's heat risk: an old one is not shown as if it were now.
          const risk = isVitalsStatus(state.kind) ? state.collar : null;
          const dogAlerts = openAlertsOfPet(dog.id, collarList, openAlerts);
          return (
            <li key={dog.id} className="grid content-start gap-2">
              <DogHomeCard dog={dog} state={state} now={now} />
              {/* Its collars' open alerts and its heat risk, beside the card, not in it: their
                  links and buttons cannot sit inside its link. */}
              {/* The caller's own dogs: theirs to resolve. */}
              <AlertsWithRisk alerts={dogAlerts} risk={risk} now={now} headingAs="h4" canResolve />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function footnote(state: DogHomeState, now: number): string {
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
      return `Updated ${formatRelativeTime(state.collar.vitals_recorded_at, now).replace(/^Just now$/, 'just now')}`;
  }
}

function DogHomeCard({ dog, state, now }: { dog: Dog; state: DogHomeState; now: number }) {
  const { temperature } = useDisplayUnits();
  const look = LOOK[state.kind];
  const collar = state.collar;
  const titleId = `dog-home-${dog.id}`;
  const body = (
    <>
      <div className="flex items-center gap-3">
        <span className="text-3xl" aria-hidden="true">
          {petAvatar(dog.id)}
        </span>
        <h3 id={titleId} className="min-w-0 flex-1 truncate text-lg font-semibold" title={dog.name}>
          {dog.name}
        </h3>
        <CollarOffBadge
          device={collar && isFresh(collar.vitals_recorded_at, now) ? collar : undefined}
        />
        <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
      </div>
      <p
        className={cn('mt-3 rounded-lg border px-3 py-2 text-2xl font-bold', look.className)}
        data-state={state.kind}
      >
        {look.label}
      </p>
      {collar && collar.temperature_celsius !== null ? (
        <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
          <div>
            <dt className="text-muted-foreground">Temperature</dt>
            <dd className="font-medium tabular-nums">{temperature(collar.temperature_celsius)}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Humidity</dt>
            <dd className="font-medium tabular-nums">
              {collar.humidity_percent === null
                ? '—'
                : `${formatOneDecimal(collar.humidity_percent)}%`}
            </dd>
          </div>
          <div className="col-span-2">
            <dt className="sr-only">Battery</dt>
            <dd>
              <BatteryMeter percent={collar.battery_level} />
            </dd>
          </div>
        </dl>
      ) : null}
      <p className="mt-3 text-sm text-muted-foreground">{footnote(state, now)}</p>
    </>
  );
  // With a collar the card opens its history; without one, Devices, to put one on.
  return (
    <Link
      to={collar ? deviceHistoryPath(collar.id) : paths.devices}
      aria-labelledby={titleId}
      className="block h-full rounded-xl border bg-card p-4 shadow-sm transition-shadow hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
    >
      {body}
    </Link>
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
