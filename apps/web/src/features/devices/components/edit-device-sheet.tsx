import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  LIMITS,
  updateDeviceInputSchema,
  type Device,
  type Dog,
  type PetAccess,
} from '@pawguard/shared';
import { FieldError } from '@/components/ui/field-error';
import { Button } from '@/components/ui/button';
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
import { errorAria, formResolver } from '@/lib/form';
import { isBlank } from '@/lib/utils';
import { useUpdateDevice } from '../api/update-device';

// The PUT body's own rules; the pet select's '' is "No pet", sent as null to take the collar off.
const editDeviceSchema = z.object({
  device_name: updateDeviceInputSchema.shape.device_name.unwrap(),
  dog_id: z
    .string()
    .transform((v) => (v === '' ? null : v))
    .pipe(updateDeviceInputSchema.shape.dog_id.unwrap()),
});

type EditDeviceSheetProps = {
  device: Device | null;
  /** What the viewer is to the collar: only its owner moves it to another pet. */
  access?: PetAccess | null;
  /** The pets it may move to: the owner's own. */
  pets: Dog[];
  onOpenChange: (open: boolean) => void;
};

export function EditDeviceSheet({
  device,
  access = 'owner',
  pets,
  onOpenChange,
}: EditDeviceSheetProps) {
  return (
    <Sheet open={device !== null} onOpenChange={onOpenChange}>
      <SheetContent>
        {device ? (
          <EditDeviceForm
            key={device.id}
            device={device}
            canMove={access === 'owner'}
            pets={pets}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}

const editDeviceResolver = formResolver(editDeviceSchema, {
  required: ['device_name'],
  wording: { device_name: { required: 'Device name is required' } },
});

function EditDeviceForm({
  device,
  canMove,
  pets,
  onDone,
}: {
  device: Device;
  /** A co-owner renames a collar on the pet they share; moving it is its owner's to do. */
  canMove: boolean;
  pets: Dog[];
  onDone: () => void;
}) {
  const update = useUpdateDevice();
  const ids = {
    deviceId: useId(),
    name: useId(),
    nameError: useId(),
    pet: useId(),
    petHint: useId(),
  };
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm({
    resolver: editDeviceResolver,
    // Checked once the name was left, then as it is typed.
    mode: 'onTouched',
    defaultValues: { device_name: device.device_name, dog_id: device.dog_id ?? '' },
  });
  const nameMissing = isBlank(useWatch({ control, name: 'device_name' }));
  const nameError = errors.device_name?.message;

  // The pet is always sent by its owner: the chosen one, or null to take the collar off its pet.
  const submit = handleSubmit((data) => {
    update.mutate(
      { id: device.id, data: canMove ? data : { device_name: data.device_name } },
      {
        onSuccess: () => {
          toast.success('Device updated successfully!');
          onDone();
        },
        onError: (error) => toast.error('Failed to update device', { description: error.message }),
      },
    );
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-1 flex-col gap-4"
      aria-label="Edit Device"
    >
      <SheetHeader>
        <SheetTitle>Edit Device</SheetTitle>
        <SheetDescription>
          {canMove
            ? 'Rename the collar or move it to another of your pets.'
            : `Rename the collar on ${device.dog_name ?? 'this pet'}.`}
        </SheetDescription>
      </SheetHeader>
      <div className="grid gap-2">
        <Label htmlFor={ids.deviceId}>Device ID</Label>
        <Input id={ids.deviceId} value={device.device_id} readOnly className="bg-muted font-mono" />
        <p className="text-sm text-muted-foreground">The Device ID cannot be changed.</p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.name}>Device Name *</Label>
        <Input
          id={ids.name}
          // What there is to edit takes focus, not the read-only Device ID above it.
          data-autofocus
          required
          maxLength={LIMITS.deviceName}
          autoComplete="off"
          {...errorAria(nameError, ids.nameError)}
          {...register('device_name')}
        />
        <FieldError id={ids.nameError}>{nameError}</FieldError>
      </div>
      {canMove ? (
        <div className="grid gap-2">
          <Label htmlFor={ids.pet}>Pet</Label>
          <NativeSelect id={ids.pet} {...register('dog_id')}>
            <option value="">No pet</option>
            {pets.map((pet) => (
              <option key={pet.id} value={pet.id}>
                {pet.name}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : (
        <div className="grid gap-2">
          <Label htmlFor={ids.pet}>Pet</Label>
          <Input
            id={ids.pet}
            value={device.dog_name ?? ''}
            readOnly
            aria-describedby={ids.petHint}
            className="bg-muted"
          />
          <p id={ids.petHint} className="text-sm text-muted-foreground">
            Only {device.owner_name ?? 'its owner'} moves this collar to another pet.
          </p>
        </div>
      )}
      <SheetFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={nameMissing || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </SheetFooter>
    </form>
  );
}
