import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { BREEDS, type Dog, type HealthCondition } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetFooter,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { Textarea } from '@/components/ui/textarea';
import { useAuth } from '@/lib/auth';
import { isBlank } from '@/lib/utils';
import { useCreatePet } from '../api/create-pet';
import { useUpdatePet } from '../api/update-pet';
import {
  BODY_CONDITION_OPTIONS,
  EMPTY_PET_FORM,
  HEALTH_CONDITION_OPTIONS,
  petFormErrors,
  petFormValues,
  SEX_OPTIONS,
  toPetInput,
  type PetFormValues,
} from './pet-form';

type PetFormSheetProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The pet to edit; none to add a new one. */
  pet?: Dog | null;
};

export function PetFormSheet({ open, onOpenChange, pet = null }: PetFormSheetProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent>
        {/* Keyed so each opening starts from the chosen pet (or an empty form). */}
        {open ? (
          <PetForm key={pet?.id ?? 'new'} pet={pet} onDone={() => onOpenChange(false)} />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}

export function PetForm({ pet, onDone }: { pet: Dog | null; onDone: () => void }) {
  const { user } = useAuth();
  const editing = pet !== null;
  const [values, setValues] = useState<PetFormValues>(() =>
    pet ? petFormValues(pet) : EMPTY_PET_FORM,
  );
  const [nameTouched, setNameTouched] = useState(false);
  const createPet = useCreatePet();
  const updatePet = useUpdatePet();
  const pending = createPet.isPending || updatePet.isPending;
  const ids = {
    name: useId(),
    nameError: useId(),
    breed: useId(),
    breeds: useId(),
    age: useId(),
    ageError: useId(),
    weight: useId(),
    weightError: useId(),
    medical: useId(),
    contact: useId(),
    riskHelp: useId(),
    sex: useId(),
    bodyCondition: useId(),
  };

  const nameMissing = isBlank(values.name);
  // Shown once the field was left or the form submitted.
  const [checked, setChecked] = useState<Partial<Record<'age' | 'weight', boolean>>>({});
  const errors = petFormErrors(values);
  const ageError = checked.age ? errors.age : undefined;
  const weightError = checked.weight ? errors.weight : undefined;
  const showNameError = nameMissing && nameTouched;
  const set =
    (field: Exclude<keyof PetFormValues, 'health_conditions'>) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
      setValues((v) => ({ ...v, [field]: event.target.value }));
  const toggleCondition = (condition: HealthCondition, on: boolean) =>
    setValues((v) => ({
      ...v,
      health_conditions: on
        ? [...v.health_conditions.filter((c) => c !== condition), condition]
        : v.health_conditions.filter((c) => c !== condition),
    }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) {
      toast.error('Please log in to add a pet');
      return;
    }
    if (nameMissing) {
      setNameTouched(true);
      toast.error('Pet name is required');
      return;
    }
    if (errors.age || errors.weight) {
      setChecked({ age: true, weight: true });
      return;
    }
    const data = toPetInput(values);
    if (pet) {
      updatePet.mutate(
        { id: pet.id, data },
        {
          onSuccess: () => {
            toast.success('Pet updated successfully!');
            onDone();
          },
          onError: (error) => toast.error('Failed to update pet', { description: error.message }),
        },
      );
    } else {
      createPet.mutate(data, {
        onSuccess: () => {
          toast.success('Pet added successfully');
          onDone();
        },
        onError: (error) => toast.error('Failed to add pet', { description: error.message }),
      });
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-1 flex-col gap-4"
      aria-label={editing ? 'Edit Pet' : 'Add New Pet'}
    >
      <SheetHeader>
        <SheetTitle>{editing ? 'Edit Pet' : 'Add New Pet'}</SheetTitle>
        <SheetDescription>
          {editing
            ? `Update ${pet.name}'s profile.`
            : 'Add your dog so you can put a collar on them and watch their safety.'}
        </SheetDescription>
      </SheetHeader>

      <div className="grid gap-2">
        <Label htmlFor={ids.name}>Name *</Label>
        <Input
          id={ids.name}
          value={values.name}
          onChange={set('name')}
          onBlur={() => setNameTouched(true)}
          required
          maxLength={100}
          autoComplete="off"
          aria-invalid={showNameError || undefined}
          aria-describedby={showNameError ? ids.nameError : undefined}
          placeholder="e.g. Biscuit"
        />
        {showNameError ? (
          <p id={ids.nameError} className="text-sm text-destructive">
            Pet name is required
          </p>
        ) : null}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.breed}>Breed</Label>
        {/* The breeds heat risk knows, as suggestions; any other breed can still be typed. */}
        <Input
          id={ids.breed}
          list={ids.breeds}
          value={values.breed}
          onChange={set('breed')}
          maxLength={100}
          autoComplete="off"
          placeholder="e.g. Beagle"
        />
        <datalist id={ids.breeds}>
          {BREEDS.map((breed) => (
            <option key={breed.name} value={breed.name} />
          ))}
        </datalist>
      </div>
      <div className="grid grid-cols-2 items-start gap-4">
        <div className="grid gap-2">
          <Label htmlFor={ids.age}>Age (years)</Label>
          <Input
            id={ids.age}
            type="number"
            inputMode="numeric"
            min={0}
            max={40}
            step={1}
            value={values.age}
            onChange={set('age')}
            onBlur={() => setChecked((c) => ({ ...c, age: true }))}
            aria-invalid={Boolean(ageError) || undefined}
            aria-describedby={ageError ? ids.ageError : undefined}
          />
          <FieldError id={ids.ageError}>{ageError}</FieldError>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.weight}>Weight (lbs)</Label>
          <Input
            id={ids.weight}
            type="number"
            inputMode="decimal"
            min={0.1}
            max={400}
            step={0.1}
            value={values.weight}
            onChange={set('weight')}
            onBlur={() => setChecked((c) => ({ ...c, weight: true }))}
            aria-invalid={Boolean(weightError) || undefined}
            aria-describedby={weightError ? ids.weightError : undefined}
          />
          <FieldError id={ids.weightError}>{weightError}</FieldError>
        </div>
      </div>
      <fieldset aria-describedby={ids.riskHelp} className="grid gap-4 rounded-lg border p-4 pt-2">
        <legend className="px-1 text-sm font-semibold">Heat-risk details</legend>
        <p id={ids.riskHelp} className="text-sm text-muted-foreground">
          Optional: helps PawGuard judge heat risk.
        </p>
        <div className="grid items-start gap-4 min-[400px]:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor={ids.sex}>Sex</Label>
            <NativeSelect id={ids.sex} value={values.sex} onChange={set('sex')}>
              {SEX_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.bodyCondition}>Body condition</Label>
            <NativeSelect
              id={ids.bodyCondition}
              value={values.body_condition}
              onChange={set('body_condition')}
            >
              {BODY_CONDITION_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Known conditions</legend>
          {HEALTH_CONDITION_OPTIONS.map((o) => (
            <label key={o.value} className="flex min-h-6 items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1"
                checked={values.health_conditions.includes(o.value)}
                onChange={(event) => toggleCondition(o.value, event.target.checked)}
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      </fieldset>
      <div className="grid gap-2">
        <Label htmlFor={ids.medical}>Medical info</Label>
        <Textarea
          id={ids.medical}
          value={values.medical_info}
          onChange={set('medical_info')}
          maxLength={1000}
          placeholder="Allergies, medication, conditions"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.contact}>Emergency contact</Label>
        <Input
          id={ids.contact}
          value={values.emergency_contact}
          onChange={set('emergency_contact')}
          maxLength={1000}
          placeholder="Vet or a person to call"
        />
      </div>

      <SheetFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={nameMissing || pending}>
          {pending ? 'Saving...' : editing ? 'Update Pet' : 'Add Pet'}
        </Button>
      </SheetFooter>
    </form>
  );
}
