import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { BREEDS, LIMITS, type Dog } from '@pawguard/shared';
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
import { useDisplayUnits } from '@/lib/display-units';
import { errorAria } from '@/lib/form';
import { isBlank } from '@/lib/utils';
import { useCreatePet } from '../api/create-pet';
import { useUpdatePet } from '../api/update-pet';
import {
  BODY_CONDITION_OPTIONS,
  EMPTY_PET_FORM,
  HEALTH_CONDITION_OPTIONS,
  petFormResolvers,
  petFormValues,
  SEX_OPTIONS,
  toPetInput,
  WEIGHT_KG_RANGE,
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
  // The weight is typed in the owner's unit and saved in lbs, the API's.
  const { weightUnit } = useDisplayUnits();
  const editing = pet !== null;
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
  const {
    register,
    handleSubmit,
    control,
    getValues,
    formState: { errors },
  } = useForm({
    resolver: petFormResolvers[weightUnit],
    // Each message shows once its field was left or the form submitted.
    mode: 'onTouched',
    defaultValues: pet ? petFormValues(pet, weightUnit) : EMPTY_PET_FORM,
  });
  const nameMissing = isBlank(useWatch({ control, name: 'name' }));
  const nameError = errors.name?.message;
  const ageError = errors.age?.message;
  const weightError = errors.weight?.message;

  const submit = handleSubmit(
    (checked) => {
      if (!user) {
        toast.error('Please log in to add a pet');
        return;
      }
      // A weight left as shown keeps the stored lbs exactly (10.2 kg is not 22.5 lbs again).
      const weightUntouched =
        pet !== null &&
        pet.weight !== null &&
        getValues('weight').trim() === petFormValues(pet, weightUnit).weight;
      const data = toPetInput(weightUntouched ? { ...checked, weight: pet.weight } : checked);
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
    },
    (invalid) => {
      if (!user) toast.error('Please log in to add a pet');
      else if (invalid.name?.type === 'required') toast.error('Pet name is required');
    },
  );

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
          required
          maxLength={LIMITS.name}
          autoComplete="off"
          placeholder="e.g. Biscuit"
          {...errorAria(nameError, ids.nameError)}
          {...register('name')}
        />
        <FieldError id={ids.nameError}>{nameError}</FieldError>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.breed}>Breed</Label>
        {/* The breeds heat risk knows, as suggestions; any other breed can still be typed. */}
        <Input
          id={ids.breed}
          list={ids.breeds}
          maxLength={LIMITS.name}
          autoComplete="off"
          placeholder="e.g. Beagle"
          {...register('breed')}
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
            max={LIMITS.petAgeMax}
            step={1}
            {...errorAria(ageError, ids.ageError)}
            {...register('age')}
          />
          <FieldError id={ids.ageError}>{ageError}</FieldError>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.weight}>Weight ({weightUnit})</Label>
          <Input
            id={ids.weight}
            type="number"
            inputMode="decimal"
            min={weightUnit === 'kg' ? WEIGHT_KG_RANGE[0] : LIMITS.petWeightMin}
            max={weightUnit === 'kg' ? WEIGHT_KG_RANGE[1] : LIMITS.petWeightMax}
            step={0.1}
            {...errorAria(weightError, ids.weightError)}
            {...register('weight')}
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
            <NativeSelect id={ids.sex} {...register('sex')}>
              {SEX_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.bodyCondition}>Body condition</Label>
            <NativeSelect id={ids.bodyCondition} {...register('body_condition')}>
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
                value={o.value}
                {...register('health_conditions')}
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
          maxLength={LIMITS.freeText}
          {...register('medical_info')}
          placeholder="Allergies, medication, conditions"
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.contact}>Emergency contact</Label>
        <Input
          id={ids.contact}
          maxLength={LIMITS.freeText}
          {...register('emergency_contact')}
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
