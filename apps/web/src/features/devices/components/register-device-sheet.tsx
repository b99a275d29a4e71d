import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { createDeviceInputSchema, LIMITS, type Dog } from '@pawguard/shared';
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
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { formResolver, hasBlankField } from '@/lib/form';
import { isBlank } from '@/lib/utils';
import { CreateDeviceError, useRegisterDevice } from '../api/register-device';

export const REQUIRED_FIELDS_MESSAGE =
  'Please fill all required fields (Pet, Device Name, Device ID)';

// What POST /api/devices would take (the claim takes the same pet and name): the Device ID
// in any case, parsed to PET-AB12.
const resolver = formResolver(
  createDeviceInputSchema.pick({ dog_id: true, device_name: true, device_id: true }),
  {
    required: ['dog_id', 'device_name', 'device_id'],
    wording: {
      device_id: {
        invalid: 'Enter the Device ID as printed on the collar: PET- and 4 letters or digits.',
      },
    },
  },
);

type RegisterDeviceSheetProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pets: Dog[];
};

export function RegisterDeviceSheet({ open, onOpenChange, pets }: RegisterDeviceSheetProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent>
        {open ? <RegisterDeviceForm pets={pets} onDone={() => onOpenChange(false)} /> : null}
      </SheetContent>
    </Sheet>
  );
}

export function RegisterDeviceForm({ pets, onDone }: { pets: Dog[]; onDone: () => void }) {
  const register = useRegisterDevice();
  const ids = { pet: useId(), name: useId(), deviceId: useId(), error: useId(), hint: useId() };
  /** The Device ID no collar has, while the owner decides: check it, or create it anyway. */
  const [unknownId, setUnknownId] = useState<string | null>(null);
  const {
    register: field,
    handleSubmit,
    control,
    setFocus,
    formState: { errors },
  } = useForm({
    resolver,
    defaultValues: {
      dog_id: pets.length === 1 ? pets[0]!.id : '',
      device_name: '',
      device_id: '',
    },
  });
  const watched = useWatch({ control, name: ['dog_id', 'device_name', 'device_id'] });
  const missing = watched.some(isBlank);
  // A changed Device ID is looked up afresh: the question was about the one typed before.
  const asking =
    unknownId !== null && watched[2]?.trim().toUpperCase() === unknownId ? unknownId : null;
  const deviceIdError =
    errors.device_id?.type === 'required' ? undefined : errors.device_id?.message;

  const send = (createUnknown: boolean) =>
    handleSubmit(
      ({ dog_id, device_name, device_id }) => {
        setUnknownId(null);
        register.mutate(
          { dogId: dog_id, deviceName: device_name, deviceId: device_id, createUnknown },
          {
            onSuccess: (result) => {
              switch (result.outcome) {
                case 'unknown':
                  setUnknownId(result.deviceId);
                  return;
                case 'assigned':
                  toast.success('Device Assigned Successfully!', {
                    description: `${result.device.device_id} is now on ${result.device.dog_name ?? 'your pet'}.`,
                  });
                  onDone();
                  return;
                case 'created':
                  toast.success('Device Created Successfully', {
                    description: `Device ${result.device.device_id} was created. An admin must pre-populate it for hardware integration.`,
                  });
                  onDone();
                  return;
                case 'already-assigned':
                  toast.error('Device Already Assigned', { description: result.message });
                  return;
              }
            },
            onError: (error) => {
              if (error instanceof CreateDeviceError)
                toast.error('Failed to create device', { description: error.message });
              else
                toast.error('Assignment Failed', {
                  // A refusal (400: not a collar; 429: too many look-ups) says why, and retrying
                  // at once would fail the same way: show the server's words.
                  description:
                    error instanceof ApiError && (error.status === 400 || error.status === 429)
                      ? error.message
                      : 'Failed to assign device. Please try again.',
                });
            },
          },
        );
      },
      (invalid) => {
        if (hasBlankField(invalid)) toast.error(REQUIRED_FIELDS_MESSAGE);
      },
    );
  const submit = send(false);

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-1 flex-col gap-4"
      aria-label="Register Device"
    >
      <SheetHeader>
        <SheetTitle>Register Device</SheetTitle>
        <SheetDescription>
          Enter the Device ID printed on the collar and choose the pet who wears it.
        </SheetDescription>
      </SheetHeader>

      <div className="grid gap-2">
        <Label htmlFor={ids.pet}>Pet *</Label>
        <NativeSelect id={ids.pet} required {...field('dog_id')}>
          <option value="">Select a pet</option>
          {pets.map((pet) => (
            <option key={pet.id} value={pet.id}>
              {pet.name}
            </option>
          ))}
        </NativeSelect>
        {pets.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            You have no pets yet.{' '}
            <Link
              to={paths.myPets}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Add a pet first
            </Link>
            .
          </p>
        ) : null}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.name}>Device Name *</Label>
        <Input
          id={ids.name}
          required
          maxLength={LIMITS.deviceName}
          autoComplete="off"
          placeholder="e.g. Biscuit's collar"
          {...field('device_name')}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.deviceId}>Device ID *</Label>
        <Input
          id={ids.deviceId}
          required
          maxLength={16}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="PET-XXXX"
          className="font-mono uppercase placeholder:normal-case"
          aria-invalid={deviceIdError ? true : undefined}
          aria-describedby={deviceIdError ? ids.error : ids.hint}
          {...field('device_id')}
        />
        {deviceIdError ? (
          <p id={ids.error} className="text-sm text-destructive">
            {deviceIdError}
          </p>
        ) : (
          <p id={ids.hint} className="text-sm text-muted-foreground">
            Printed on the collar, e.g. PET-AB12. It cannot be changed later.
          </p>
        )}
      </div>

      {asking ? (
        <div
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
        >
          <p>No collar {asking} is known. Check the ID on the collar, or create it anyway?</p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              className="bg-card"
              onClick={() => {
                setUnknownId(null);
                setFocus('device_id', { shouldSelect: true });
              }}
            >
              Check the ID
            </Button>
            <Button size="sm" disabled={register.isPending} onClick={() => void send(true)()}>
              Create it anyway
            </Button>
          </div>
        </div>
      ) : null}

      <SheetFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={missing || register.isPending}>
          {register.isPending ? 'Registering...' : 'Register Device'}
        </Button>
      </SheetFooter>
    </form>
  );
}
