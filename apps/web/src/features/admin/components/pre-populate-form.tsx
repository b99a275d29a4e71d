import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Shuffle } from 'lucide-react';
import { prePopulateItemSchema, type PrePopulatedDevice } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorAria, formResolver, hasBlankField } from '@/lib/form';
import { readableError } from '@/lib/readable-error';
import { generateDeviceId } from '../api/generate-device-id';
import { usePrePopulateDevice } from '../api/pre-populate-device';

// One item of the pre-populate list, as the server checks it: the Device ID upper-cased,
// the MAC address in any case and separator, normalised to AA:BB:CC:DD:EE:FF.
const prePopulateFormSchema = prePopulateItemSchema.pick({ device_id: true, device_address: true });

const resolver = formResolver(prePopulateFormSchema, {
  required: ['device_id', 'device_address'],
  wording: {
    device_id: { invalid: 'The Device ID must look like PET-AB12 (PET- and 4 letters or digits).' },
    device_address: { invalid: 'The MAC address must look like AA:BB:CC:DD:EE:FF.' },
  },
});

export function PrePopulateForm({
  onCreated,
}: {
  onCreated: (device: PrePopulatedDevice) => void;
}) {
  const [generating, setGenerating] = useState(false);
  const prePopulate = usePrePopulateDevice();
  const ids = {
    deviceId: useId(),
    deviceIdError: useId(),
    mac: useId(),
    macError: useId(),
    macHint: useId(),
  };
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    formState: { errors },
  } = useForm({ resolver, defaultValues: { device_id: '', device_address: '' } });
  // A blank field is said once, in a toast; a wrong one under the field, until it is right.
  const shown = (error: { type: string; message?: string } | undefined) =>
    error && error.type !== 'required' ? error.message : undefined;
  const idError = shown(errors.device_id);
  const macError = shown(errors.device_address);

  const generate = async () => {
    setGenerating(true);
    try {
      setValue('device_id', await generateDeviceId(), {
        shouldValidate: Boolean(errors.device_id),
      });
    } catch (error) {
      toast.error('Failed to generate a Device ID', {
        description: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setGenerating(false);
    }
  };

  const submit = handleSubmit(
    ({ device_id, device_address }) => {
      prePopulate.mutate(
        { deviceId: device_id, macAddress: device_address },
        {
          onSuccess: (device) => {
            toast.success(`Device ${device.device_id} pre-populated successfully`);
            reset();
            onCreated(device);
          },
          onError: (error) =>
            toast.error('Failed to pre-populate device', {
              description: readableError(error.message),
            }),
        },
      );
    },
    (invalid) => {
      // The spec's 'required' toast is for a blank field only; a filled but wrong one is named
      // in the toast too, in the words shown under it (as the server's refusal would be).
      if (hasBlankField(invalid)) {
        toast.error('Device ID and MAC address are required');
        return;
      }
      const wrong = [invalid.device_id?.message, invalid.device_address?.message];
      toast.error('Failed to pre-populate device', {
        description: wrong.filter(Boolean).join(' '),
      });
    },
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Pre-populate Device">
      <div className="grid gap-2">
        <Label htmlFor={ids.deviceId}>Device ID *</Label>
        <div className="flex gap-2">
          <Input
            id={ids.deviceId}
            required
            maxLength={16}
            autoComplete="off"
            spellCheck={false}
            placeholder="PET-XXXX"
            className="font-mono uppercase placeholder:normal-case"
            {...errorAria(idError, ids.deviceIdError)}
            {...register('device_id')}
          />
          <Button variant="outline" onClick={() => void generate()} disabled={generating}>
            <Shuffle aria-hidden="true" />
            {generating ? 'Generating...' : 'Generate'}
          </Button>
        </div>
        <FieldError id={ids.deviceIdError}>{idError}</FieldError>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.mac}>MAC Address *</Label>
        <Input
          id={ids.mac}
          required
          maxLength={17}
          autoComplete="off"
          spellCheck={false}
          placeholder="AA:BB:CC:DD:EE:FF"
          className="font-mono"
          {...errorAria(macError, ids.macError, ids.macHint)}
          {...register('device_address')}
        />
        <FieldError id={ids.macError}>{macError}</FieldError>
        <p id={ids.macHint} className="text-sm text-muted-foreground">
          Any case, with colons, dashes or no separators. The device is named &apos;Device&apos;
          plus its ID, type collar.
        </p>
      </div>
      <Button type="submit" disabled={prePopulate.isPending} className="sm:justify-self-start">
        {prePopulate.isPending ? 'Pre-populating...' : 'Pre-populate Device'}
      </Button>
    </form>
  );
}
