import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import {
  Activity,
  FileHeart,
  Pencil,
  PawPrint,
  Plus,
  RefreshCw,
  Siren,
  Thermometer,
  Trash2,
  Users,
} from 'lucide-react';
import { isFresh, petAvatar, type Alert, type Device, type Dog } from '@pawguard/shared';
import {
  CardAlerts,
  LevelBlock,
  LevelWord,
  ReadingFacts,
  deviceReading,
  showsAboveSafe,
  type CardReading,
} from '@/components/dog-status';
import { DogActivity } from '@/components/dog-activity';
import { LiveStatus } from '@/components/live-status';
import { SharedPetBadge } from '@/components/shared-pet-badge';
import { PageHeader } from '@/components/page-header';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths, petHealthPath } from '@/config/paths';
import { useDeletePet } from '../api/delete-pet';
import { OpenAlertsNotice } from '@/components/open-alerts-notice';
import { alertsByDevice, openAlertsOfPet, useOpenAlerts } from '@/lib/api/alerts';
import { useDevices } from '@/lib/api/get-devices';
import { PET_STATUS_POLL_MS } from '../api/pet-status-poll';
import { usePets } from '@/lib/api/get-pets';
import { useLiveFallback } from '@/lib/realtime';
import { useDisplayUnits, type DisplayUnits } from '@/lib/display-units';
import { useNow } from '@/lib/use-now';
import { petRights } from '@/lib/pet-rights';
import { cn } from '@/lib/utils';
import { PackSheet } from './pack-sheet';
import { PetFormSheet } from './pet-form-sheet';
import { petStatus, type PetStatus } from './pet-status';
import { PetStatusBadge } from './pet-status-badge';

type SheetState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; pet: Dog };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function MyPetsPage() {
  const pets = usePets();
  // The badges follow the live stream; polling every 10 s is the fallback while it is down.
  const collars = useDevices({ refetchIntervalMs: useLiveFallback(PET_STATUS_POLL_MS) });
  // Each reading's age ticks by the second; the badges follow it within one.
  const now = useNow(1_000);
  // The dashboard's "Add a pet" arrives with ?add=pet: the add sheet opens at once.
  const [params, setParams] = useSearchParams();
  const [sheet, setSheet] = useState<SheetState>(() =>
    params.get('add') === 'pet' ? { mode: 'add' } : { mode: 'closed' },
  );
  useEffect(() => {
    if (params.get('add') !== 'pet') return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('add');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);
  const [deleting, setDeleting] = useState<Dog | null>(null);
  const [packOf, setPackOf] = useState<Dog | null>(null);

  useEffect(() => {
    if (pets.isError)
      toast.error('Failed to fetch your pets', {
        id: 'fetch-pets',
        description: pets.error.message,
      });
  }, [pets.isError, pets.error]);

  // Without collar data (a failed call) no reading can be shown: Disconnected, not Loading.
  const collarList: Device[] | undefined = collars.isError ? [] : collars.data;
  const statusOf = (pet: Dog): PetStatus => petStatus(pet.id, collarList, now);
  // A pet's open alerts are those of the collars it wears now (or, without the list, its own).
  const alertsQuery = useOpenAlerts();
  const openAlerts = alertsByDevice(alertsQuery.data?.alerts);
  const alertsOf = (pet: Dog): Alert[] => openAlertsOfPet(pet.id, collars.data, openAlerts);
  const readingOf = (pet: Dog): CardReading | null => {
    const collar = latestCollar(collars.data?.filter((c) => c.dog_id === pet.id) ?? []);
    return collar && collar.vitals_recorded_at !== null ? deviceReading(collar) : null;
  };
  const list = pets.data ?? [];
  // The detail card shows the first pet (spec) until another is chosen from the list.
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = list.find((pet) => pet.id === selectedId) ?? list[0];
  const detailRef = useRef<HTMLDivElement>(null);
  const select = (pet: Dog) => {
    setSelectedId(pet.id);
    // On a phone the card sits below the list: bring it into view.
    if (detailRef.current) showTopOf(detailRef.current);
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="My Pets"
        description={
          <>
            {pets.data
              ? `${plural(list.length, 'pet')} registered`
              : 'Your dogs and their safety status.'}{' '}
            <LiveStatus fallback="checking every 10 seconds" className="ml-2 align-middle" />
          </>
        }
        actions={
          <Button onClick={() => setSheet({ mode: 'add' })}>
            <Plus aria-hidden="true" />
            Add Pet
          </Button>
        }
      />

      {pets.isPending ? (
        <PetsLoading />
      ) : pets.isError ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <p className="font-semibold">We couldn&apos;t load your pets.</p>
            <p className="text-sm text-muted-foreground">{pets.error.message}</p>
            <Button variant="outline" onClick={() => void pets.refetch()}>
              <RefreshCw aria-hidden="true" />
              Try Again
            </Button>
          </CardContent>
        </Card>
      ) : selected === undefined ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <PawPrint className="size-10 text-primary" aria-hidden="true" />
            <h2 className="text-lg font-semibold">No pets yet</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              Add your dog to register a collar, watch their temperature and get alerts before the
              heat becomes dangerous.
            </p>
            <Button onClick={() => setSheet({ mode: 'add' })}>
              <Plus aria-hidden="true" />
              Add Your First Pet
            </Button>
          </CardContent>
        </Card>
      ) : (
        <>
          <OpenAlertsNotice alerts={alertsQuery} />
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
            {/* The list first on a phone too: the detail card follows it. */}
            <section aria-labelledby="pet-list-title" className="min-w-0">
              <h2 id="pet-list-title" className="mb-3 text-lg font-semibold">
                All Pets ({list.length})
              </h2>
              <ul className="grid grid-cols-1 gap-3">
                {list.map((pet) => (
                  <li key={pet.id}>
                    <PetListItem
                      pet={pet}
                      status={statusOf(pet)}
                      reading={readingOf(pet)}
                      now={now}
                      alerts={alertsOf(pet)}
                      selected={pet.id === selected.id}
                      onSelect={() => select(pet)}
                      onEdit={() => setSheet({ mode: 'edit', pet })}
                      onDelete={() => setDeleting(pet)}
                      onPack={() => setPackOf(pet)}
                    />
                  </li>
                ))}
              </ul>
            </section>
            <div ref={detailRef} className="min-w-0 scroll-mt-20">
              <PetDetailCard
                pet={selected}
                status={statusOf(selected)}
                alerts={alertsOf(selected)}
                now={now}
                collars={
                  collars.data
                    ? collars.data.filter((c) => c.dog_id === selected.id)
                    : collars.isError
                      ? 'failed'
                      : 'pending'
                }
                onRetryCollars={() => void collars.refetch()}
                onEdit={() => setSheet({ mode: 'edit', pet: selected })}
                onPack={() => setPackOf(selected)}
              />
            </div>
          </div>
        </>
      )}

      <PetFormSheet
        open={sheet.mode !== 'closed'}
        pet={sheet.mode === 'edit' ? sheet.pet : null}
        onOpenChange={(open) => {
          if (!open) setSheet({ mode: 'closed' });
        }}
      />
      <DeletePetDialog pet={deleting} onClose={() => setDeleting(null)} />
      <PackSheet
        pet={packOf}
        onOpenChange={(open) => {
          if (!open) setPackOf(null);
        }}
      />
    </section>
  );
}

/**
 * Scrolls so the top of `el` (the pet's name) shows below the sticky header, unless it
 * already does. `block: 'nearest'` would align the bottom of a card taller than the screen,
 * leaving its name under the header; its scroll-margin-top keeps it clear of the header.
 */
function showTopOf(el: HTMLElement) {
  const top = el.getBoundingClientRect().top;
  const margin = parseFloat(getComputedStyle(el).scrollMarginTop) || 0;
  if (top >= margin && top < window.innerHeight * 0.5) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
}

function PetsLoading() {
  return (
    <div role="status" aria-label="Loading your pets" className="grid gap-3">
      {[0, 1].map((i) => (
        <Card key={i}>
          <CardContent className="flex items-center gap-4 p-4">
            <Skeleton className="size-12 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-3 w-48" />
            </div>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

function petFacts(pet: Dog, weight: DisplayUnits['weight']): string {
  const facts = [
    pet.breed,
    pet.age === null ? null : `${pet.age} ${pet.age === 1 ? 'year' : 'years'}`,
    pet.weight === null ? null : weight(pet.weight),
  ].filter(Boolean);
  return facts.length > 0 ? facts.join(' · ') : 'No details yet';
}

function Avatar({ pet, size = 'md' }: { pet: Dog; size?: 'md' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      className={
        size === 'lg'
          ? 'inline-flex size-20 shrink-0 items-center justify-center rounded-full bg-orange-100 text-5xl'
          : 'inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-orange-100 text-2xl'
      }
    >
      {petAvatar(pet.id)}
    </span>
  );
}

/**
 * The chips beside the pet's status for its collars' open alerts that are not about heat
 * (offline, battery, collar off, readings refused). Heat is said by the level word: an alert
 * keeps its peak level until the dog is Safe, so its level beside the dog's one level now
 * would contradict the card.
 */
function AlertChips({ alerts }: { alerts: Alert[] }) {
  const shown = alerts.filter((a) => a.type !== 'heat');
  if (shown.length === 0) return null;
  return (
    <>
      {[...new Set(shown.map((a) => a.type))].map((type) => (
        <Badge key={type} variant="muted" data-alert-type={type}>
          <Siren aria-hidden="true" />
          {type === 'offline'
            ? 'Collar offline'
            : type === 'collar_off'
              ? 'Collar off?'
              : type === 'over_budget'
                ? 'Readings refused'
                : 'Battery low'}
        </Badge>
      ))}
    </>
  );
}

function PetListItem({
  pet,
  status,
  now,
  reading,
  alerts,
  selected,
  onSelect,
  onEdit,
  onDelete,
  onPack,
}: {
  pet: Dog;
  status: PetStatus;
  now: number;
  /** The latest reading of the pet's collars, null before the first. */
  reading: CardReading | null;
  alerts: Alert[];
  selected: boolean;
  onSelect: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onPack: () => void;
}) {
  // The list is narrow: the weight in the owner's unit only (the detail card gives both).
  const { weightShort } = useDisplayUnits();
  const rights = petRights(pet);
  return (
    <Card className={cn('relative', selected && 'border-primary ring-1 ring-primary')}>
      <CardContent className="flex items-center gap-3 p-4">
        <Avatar pet={pet} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="min-w-0 truncate font-semibold" title={pet.name}>
              {/* The whole card is the target (the ::after covers it); edit and delete sit above. */}
              <button
                type="button"
                onClick={onSelect}
                aria-pressed={selected}
                className="inline-flex min-h-11 items-center rounded-sm text-left after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-ring"
              >
                {pet.name}
                <span className="sr-only"> — show details</span>
              </button>
            </h3>
            <PetStatusBadge status={status} />
            {/* The dog's one level in the cards' word set, as small as a chip. */}
            {reading ? (
              <LevelWord
                size="sm"
                label="Level"
                level={reading.level}
                stale={!isFresh(reading.recordedAt, now)}
                collarOff={reading.collarOff}
              />
            ) : null}
            <AlertChips alerts={alerts} />
          </div>
          <p className="text-sm text-muted-foreground">{petFacts(pet, weightShort)}</p>
          <SharedPetBadge access={pet.access} ownerName={pet.owner_name} className="mt-1" />
        </div>
        {/* Only what this person may do with the pet: a caregiver changes nothing of it. */}
        <div className="relative z-10 flex shrink-0 gap-1">
          <Button
            variant="ghost"
            size="icon"
            onClick={onPack}
            aria-label={`Pack of ${pet.name}`}
            title="Pack"
          >
            <Users aria-hidden="true" />
          </Button>
          {rights.manage ? (
            <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${pet.name}`}>
              <Pencil aria-hidden="true" />
            </Button>
          ) : null}
          {rights.remove ? (
            <Button
              variant="ghost"
              size="icon"
              onClick={onDelete}
              aria-label={`Delete ${pet.name}`}
              className="text-destructive hover:text-destructive"
            >
              <Trash2 aria-hidden="true" />
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

function PetDetailCard({
  pet,
  status,
  alerts,
  now,
  collars,
  onRetryCollars,
  onEdit,
  onPack,
}: {
  pet: Dog;
  status: PetStatus;
  alerts: Alert[];
  now: number;
  /** The pet's collars, or why they are not known. */
  collars: Device[] | 'pending' | 'failed';
  onRetryCollars: () => void;
  onEdit: () => void;
  onPack: () => void;
}) {
  const { weight } = useDisplayUnits();
  const rights = petRights(pet);
  // View Activity and Health Report open the pet's health dashboard (DESIGN §6).
  const collar = typeof collars === 'string' ? undefined : latestCollar(collars);
  const healthPath = petHealthPath(pet.id);
  const reading = collar && collar.vitals_recorded_at !== null ? deviceReading(collar) : null;
  return (
    <Card aria-labelledby="pet-detail-title">
      <CardHeader className="flex-row items-center gap-4">
        <Avatar pet={pet} size="lg" />
        <div className="min-w-0">
          <CardTitle as="h2" id="pet-detail-title" className="truncate text-xl" title={pet.name}>
            {pet.name}
          </CardTitle>
          <CardDescription>{petFacts(pet, weight)}</CardDescription>
          <div className="mt-2 flex flex-wrap gap-2">
            <PetStatusBadge status={status} />
            <SharedPetBadge access={pet.access} ownerName={pet.owner_name} />
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        {reading ? (
          <div className="grid gap-3">
            <LevelBlock reading={reading} alerts={alerts} now={now} />
            {reading.temperature === null ? null : <ReadingFacts reading={reading} now={now} />}
          </div>
        ) : null}
        {/* The caller's own pets and those shared with them: every member resolves. */}
        <CardAlerts alerts={alerts} now={now} canResolve={rights.acknowledge} />
        {collar ? (
          <DogActivity
            dogId={pet.id}
            dogName={pet.name}
            canEditGoal={rights.manage}
            aboveSafe={showsAboveSafe(reading, alerts)}
          />
        ) : null}
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-muted-foreground">Medical info</dt>
            <dd className="whitespace-pre-line break-words">
              {pet.medical_info || 'None recorded'}
            </dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Emergency contact</dt>
            <dd className="break-words">{pet.emergency_contact || 'None recorded'}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-muted-foreground">Collars</dt>
            <dd>
              {collars === 'pending' ? (
                <span className="text-muted-foreground">Loading…</span>
              ) : collars === 'failed' ? (
                <>
                  Your collars could not be loaded just now.{' '}
                  <button
                    type="button"
                    onClick={onRetryCollars}
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    Try again
                  </button>
                </>
              ) : collars.length > 0 ? (
                collars.map((c) => `${c.device_name} (${c.device_id})`).join(', ')
              ) : pet.access !== 'owner' ? (
                `No collar yet. ${pet.owner_name ?? 'Their owner'} adds ${pet.name}'s collars.`
              ) : (
                <>
                  No collar yet.{' '}
                  <Link
                    to={paths.devices}
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    Register a device
                  </Link>
                </>
              )}
            </dd>
          </div>
        </dl>
        <div>
          <h3 className="mb-2 text-sm font-semibold">Quick actions</h3>
          <div className="grid grid-cols-1 gap-2 min-[400px]:grid-cols-2">
            <Button variant="outline" asChild>
              <Link to={paths.monitoring}>
                <Thermometer aria-hidden="true" />
                Check Temperature
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link to={healthPath}>
                <Activity aria-hidden="true" />
                View Activity
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link to={healthPath}>
                <FileHeart aria-hidden="true" />
                Health Report
              </Link>
            </Button>
            {rights.manage ? (
              <Button variant="outline" onClick={onEdit}>
                <PawPrint aria-hidden="true" />
                Edit Profile
              </Button>
            ) : null}
            <Button variant="outline" onClick={onPack}>
              <Users aria-hidden="true" />
              Pack
            </Button>
          </div>
          {rights.manage ? null : (
            <p className="mt-2 text-sm text-muted-foreground">
              As a caregiver you see {pet.name} live and handle their alerts; only{' '}
              {pet.owner_name ?? 'their owner'} and co-owners change their profile.
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function latestCollar(collars: Device[]): Device | undefined {
  const time = (c: Device) => (c.vitals_recorded_at ? Date.parse(c.vitals_recorded_at) : -Infinity);
  return collars.reduce<Device | undefined>(
    (best, c) => (best === undefined || time(c) > time(best) ? c : best),
    undefined,
  );
}

function DeletePetDialog({ pet, onClose }: { pet: Dog | null; onClose: () => void }) {
  const deletePet = useDeletePet();
  const confirm = () => {
    if (!pet) return;
    deletePet.mutate(pet.id, {
      onSuccess: () => {
        toast.success('Pet deleted successfully!');
        onClose();
      },
      onError: (error) => {
        toast.error('Failed to delete pet', { description: error.message });
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      open={pet !== null}
      onClose={onClose}
      title={`Delete ${pet?.name}?`}
      description={`This removes ${pet?.name}'s profile and cannot be undone. Collars on this pet stay on your account, without a pet.`}
      onConfirm={confirm}
      pending={deletePet.isPending}
    />
  );
}
