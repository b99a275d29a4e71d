import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Device, Dog } from '@pawguard/shared';
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
import { isBlank } from '@/lib/utils';
import { useUpdateDevice } from '../api/update-device';

type EditDeviceSheetProps = {
  device: Device | null;
  pets: Dog[];
  onOpenChange: (open: boolean) => void;
};

export function EditDeviceSheet({ device, pets, onOpenChange }: EditDeviceSheetProps) {
  return (
    <Sheet open={device !== null} onOpenChange={onOpenChange}>
      <SheetContent>
        {device ? (
          <EditDeviceForm
            key={device.id}
            device={device}
            pets={pets}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </SheetContent>
    </Sheet>
  );
}

function EditDeviceForm({
  device,
  pets,
  onDone,
}: {
  device: Device;
  pets: Dog[];
  onDone: () => void;
}) {
  const [deviceName, setDeviceName] = useState(device.device_name);
  const [dogId, setDogId] = useState(device.dog_id ?? '');
  const [touched, setTouched] = useState(false);
  const update = useUpdateDevice();
  const ids = { deviceId: useId(), name: useId(), nameError: useId(), pet: useId() };
  const nameMissing = isBlank(deviceName);
  const showNameError = nameMissing && touched;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nameMissing) {
      setTouched(true);
      return;
    }
    update.mutate(
      // The pet is always sent: the chosen one, or null to take the collar off its pet.
      {
        id: device.id,
        data: { device_name: deviceName.trim(), dog_id: dogId === '' ? null : dogId },
      },
      {
        onSuccess: () => {
          toast.success('Device updated successfully!');
          onDone();
        },
        onError: (error) => toast.error('Failed to update device', { description: error.message }),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-1 flex-col gap-4"
      aria-label="Edit Device"
    >
      <SheetHeader>
        <SheetTitle>Edit Device</SheetTitle>
        <SheetDescription>Rename the collar or move it to another of your pets.</SheetDescription>
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
          value={deviceName}
          onChange={(event) => setDeviceName(event.target.value)}
          onBlur={() => setTouched(true)}
          required
          maxLength={50}
          autoComplete="off"
          aria-invalid={showNameError || undefined}
          aria-describedby={showNameError ? ids.nameError : undefined}
        />
        {showNameError ? (
          <p id={ids.nameError} className="text-sm text-destructive">
            Device name is required
          </p>
        ) : null}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.pet}>Pet</Label>
        <NativeSelect id={ids.pet} value={dogId} onChange={(event) => setDogId(event.target.value)}>
          <option value="">No pet</option>
          {pets.map((pet) => (
            <option key={pet.id} value={pet.id}>
              {pet.name}
            </option>
          ))}
        </NativeSelect>
      </div>
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
