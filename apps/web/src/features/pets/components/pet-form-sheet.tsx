import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Dog } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
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
  EMPTY_PET_FORM,
  petFormErrors,
  petFormValues,
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
    age: useId(),
    ageError: useId(),
    weight: useId(),
    weightError: useId(),
    medical: useId(),
    contact: useId(),
  };

  const nameMissing = isBlank(values.name);
  // Shown once the field was left or the form submitted.
  const [checked, setChecked] = useState<Partial<Record<'age' | 'weight', boolean>>>({});
  const errors = petFormErrors(values);
  const ageError = checked.age ? errors.age : undefined;
  const weightError = checked.weight ? errors.weight : undefined;
  const showNameError = nameMissing && nameTouched;
  const set =
    (field: keyof PetFormValues) =>
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setValues((v) => ({ ...v, [field]: event.target.value }));

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
        <Input
          id={ids.breed}
          value={values.breed}
          onChange={set('breed')}
          maxLength={100}
          placeholder="e.g. Beagle"
        />
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
