import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Shuffle } from 'lucide-react';
import { normalizeDeviceId, normalizeMac, type PrePopulatedDevice } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/field-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { readableError } from '@/lib/readable-error';
import { isBlank } from '@/lib/utils';
import { generateDeviceId } from '../api/generate-device-id';
import { usePrePopulateDevice } from '../api/pre-populate-device';

export function PrePopulateForm({
  onCreated,
}: {
  onCreated: (device: PrePopulatedDevice) => void;
}) {
  const [deviceId, setDeviceId] = useState('');
  const [macAddress, setMacAddress] = useState('');
  const [generating, setGenerating] = useState(false);
  const prePopulate = usePrePopulateDevice();
  const ids = {
    deviceId: useId(),
    deviceIdError: useId(),
    mac: useId(),
    macError: useId(),
    macHint: useId(),
  };
  // Checked as the server will, shown under each field once the form was submitted.
  const [checked, setChecked] = useState(false);
  const idError =
    !isBlank(deviceId) && normalizeDeviceId(deviceId) === null
      ? 'The Device ID must look like PET-AB12 (PET- and 4 letters or digits).'
      : undefined;
  const macError =
    !isBlank(macAddress) && normalizeMac(macAddress) === null
      ? 'The MAC address must look like AA:BB:CC:DD:EE:FF.'
      : undefined;
  const shownIdError = checked ? idError : undefined;
  const shownMacError = checked ? macError : undefined;

  const generate = async () => {
    setGenerating(true);
    try {
      setDeviceId(await generateDeviceId());
    } catch (error) {
      toast.error('Failed to generate a Device ID', {
        description: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setGenerating(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isBlank(deviceId) || isBlank(macAddress)) {
      toast.error('Device ID and MAC address are required');
      return;
    }
    setChecked(true);
    if (idError || macError) return;
    const id = deviceId.trim().toUpperCase();
    prePopulate.mutate(
      { deviceId: id, macAddress: macAddress.trim() },
      {
        onSuccess: (device) => {
          toast.success(`Device ${device.device_id} pre-populated successfully`);
          setDeviceId('');
          setMacAddress('');
          onCreated(device);
        },
        onError: (error) =>
          toast.error('Failed to pre-populate device', {
            description: readableError(error.message),
          }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Pre-populate Device">
      <div className="grid gap-2">
        <Label htmlFor={ids.deviceId}>Device ID *</Label>
        <div className="flex gap-2">
          <Input
            id={ids.deviceId}
            value={deviceId}
            onChange={(event) => setDeviceId(event.target.value)}
            required
            maxLength={16}
            autoComplete="off"
            spellCheck={false}
            placeholder="PET-XXXX"
            className="font-mono uppercase placeholder:normal-case"
            aria-invalid={Boolean(shownIdError) || undefined}
            aria-describedby={shownIdError ? ids.deviceIdError : undefined}
          />
          <Button variant="outline" onClick={() => void generate()} disabled={generating}>
            <Shuffle aria-hidden="true" />
            {generating ? 'Generating...' : 'Generate'}
          </Button>
        </div>
        <FieldError id={ids.deviceIdError}>{shownIdError}</FieldError>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={ids.mac}>MAC Address *</Label>
        <Input
          id={ids.mac}
          value={macAddress}
          onChange={(event) => setMacAddress(event.target.value)}
          required
          maxLength={17}
          autoComplete="off"
          spellCheck={false}
          placeholder="AA:BB:CC:DD:EE:FF"
          className="font-mono"
          aria-invalid={Boolean(shownMacError) || undefined}
          aria-describedby={shownMacError ? `${ids.macError} ${ids.macHint}` : ids.macHint}
        />
        <FieldError id={ids.macError}>{shownMacError}</FieldError>
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
