import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Repeat } from 'lucide-react';
import { DEFAULT_ESCALATION, type Dog, type Escalation } from '@pawguard/shared';
import { SharedPetBadge } from '@/components/shared-pet-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { addPetPath } from '@/config/paths';
import { usePets } from '@/lib/api/get-pets';
import { petRights } from '@/lib/pet-rights';
import { cn } from '@/lib/utils';
import { useEscalation } from '../api/get-escalation';
import { useUpdateEscalation } from '../api/update-escalation';

/** The minutes offered for each level; a pet's stored value is offered too when it is not one. */
export const DANGER_CHOICES = [5, 10, 15, 30, 60] as const;
export const CRITICAL_CHOICES = [1, 2, 3, 5, 10, 15] as const;

type Level = keyof Escalation;

const minutes = (n: number) => `${n} minute${n === 1 ? '' : 's'}`;

/** The choices for a select: the list, the stored value among them, in order. */
function choicesWith(list: readonly number[], stored: number | undefined): number[] {
  const all = new Set<number>(list);
  if (stored !== undefined) all.add(stored);
  return [...all].sort((a, b) => a - b);
}

/**
 * "If nobody acknowledges": for each of the person's pets, how soon a Danger or Critical heat
 * alert that nobody has acknowledged is sent again, "not yet acknowledged". Each pet is saved
 * on its own.
 */
export function EscalationCard({ className }: { className?: string }) {
  const titleId = useId();
  const pets = usePets();

  return (
    <section aria-labelledby={titleId} className={className}>
      <Card>
        <CardHeader>
          <CardTitle as="h2" id={titleId} className="flex items-center gap-2">
            <Repeat className="size-5 text-orange-600" aria-hidden="true" />
            If nobody acknowledges
          </CardTitle>
          <CardDescription>
            A Danger or Critical heat alert that nobody acknowledges is sent again to you, marked
            “not yet acknowledged”.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {pets.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <Spinner /> Loading your pets...
            </p>
          ) : pets.isError ? (
            <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
              <span>Your pets could not be loaded just now.</span>
              <Button type="button" variant="outline" size="sm" onClick={() => void pets.refetch()}>
                Try Again
              </Button>
            </div>
          ) : pets.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              No pets yet.{' '}
              <Link to={addPetPath} className="font-medium text-foreground underline">
                Add a pet
              </Link>{' '}
              to choose how soon its alerts are sent again.
            </p>
          ) : (
            pets.data.map((pet, i) => (
              <PetEscalationForm key={pet.id} pet={pet} className={cn(i > 0 && 'border-t pt-4')} />
            ))
          )}
        </CardContent>
      </Card>
    </section>
  );
}

/**
 * One pet's two choices and its own Save. Until its minutes have loaded it cannot be saved. A
 * pet shared with a caregiver shows its minutes, which only its owner or a co-owner changes.
 */
function PetEscalationForm({ pet, className }: { pet: Dog; className?: string }) {
  const escalation = useEscalation(pet.id);
  const save = useUpdateEscalation();
  const ids = { danger: useId(), critical: useId(), note: useId() };
  // What the person changed, over the stored minutes.
  const [edits, setEdits] = useState<Partial<Escalation>>({});
  const known = escalation.data !== undefined;
  const canChange = petRights(pet).manage;
  const shown: Escalation = { ...(escalation.data ?? DEFAULT_ESCALATION), ...edits };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!known || !canChange) return;
    save.mutate(
      { dogId: pet.id, escalation: shown },
      {
        onSuccess: () => {
          setEdits({});
          toast.success('Escalation saved', { description: `For ${pet.name}.` });
        },
        onError: (error) => {
          console.error('Failed to save escalation', error);
          toast.error('Failed to save escalation', { description: error.message });
        },
      },
    );
  };

  const select = (level: Level, id: string, label: string, list: readonly number[]) => (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={known ? String(shown[level]) : ''}
        disabled={!known || !canChange}
        aria-describedby={canChange ? undefined : ids.note}
        onChange={(e) => setEdits((s) => ({ ...s, [level]: Number(e.target.value) }))}
      >
        {known ? null : <option value="">Loading...</option>}
        {choicesWith(list, escalation.data?.[level]).map((n) => (
          <option key={n} value={n}>
            {minutes(n)}
            {n === DEFAULT_ESCALATION[level] ? ' (default)' : ''}
          </option>
        ))}
      </NativeSelect>
    </div>
  );

  return (
    <form onSubmit={submit} className={cn('grid gap-3', className)} noValidate>
      <fieldset className="grid gap-3">
        <legend className="mb-1 font-semibold">{pet.name}</legend>
        <SharedPetBadge
          access={pet.access}
          ownerName={pet.owner_name}
          className="-mt-1 justify-self-start"
        />
        {escalation.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
            <span>{pet.name}’s settings could not be loaded just now.</span>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => void escalation.refetch()}
            >
              Try Again
            </Button>
          </div>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          {select('danger_minutes', ids.danger, 'Danger: send again after', DANGER_CHOICES)}
          {select('critical_minutes', ids.critical, 'Critical: send again after', CRITICAL_CHOICES)}
        </div>
      </fieldset>
      {canChange ? (
        <div>
          <Button type="submit" variant="outline" disabled={!known || save.isPending}>
            {save.isPending ? 'Saving...' : `Save for ${pet.name}`}
          </Button>
        </div>
      ) : (
        <p id={ids.note} className="text-sm text-muted-foreground">
          As {pet.name}’s caregiver you get these alerts; only its owner or a co-owner can change
          when they are sent again.
        </p>
      )}
    </form>
  );
}
