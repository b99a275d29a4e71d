import { useId } from 'react';
import { toast } from 'sonner';
import { Copy, KeyRound, TriangleAlert } from 'lucide-react';
import type { PrePopulatedDevice } from '@pawguard/shared';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/**
 * The pre-populate (or rotate-key) answer is the only place a key ever appears: it stays on
 * screen until the admin says it is stored, then it is gone.
 */
export function DeviceKeyNotice({
  device,
  rotated = false,
  onDismiss,
}: {
  device: PrePopulatedDevice;
  rotated?: boolean;
  onDismiss: () => void;
}) {
  const keyId = useId();
  const titleId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(device.device_key);
      toast.success('Device key copied');
    } catch {
      toast.error('Could not copy the key', { description: 'Select the key and copy it by hand.' });
    }
  };

  return (
    <Card className="border-amber-300" role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle as="h2" id={titleId} className="flex items-center gap-2">
          <KeyRound className="size-5 text-primary" aria-hidden="true" />
          {rotated ? 'New device key' : 'Device key'} for {device.device_id}
        </CardTitle>
        <CardDescription>
          The collar authenticates every reading with this key.
          {rotated ? ' Its previous key no longer works.' : null}
          {device.adopted
            ? ` This Device ID was already registered by ${device.owner_name ?? 'a customer'}; the collar is now assigned to them.`
            : null}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Alert variant="warning" role="alert">
          <TriangleAlert aria-hidden="true" />
          <p>
            <strong>Store this key now.</strong> It is shown only this once and can never be shown
            again. Without it the collar cannot send readings.
          </p>
        </Alert>
        <div className="grid gap-2">
          <Label htmlFor={keyId}>Key for {device.device_id}</Label>
          <div className="flex gap-2">
            <Input
              id={keyId}
              value={device.device_key}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              className="font-mono"
            />
            <Button variant="outline" onClick={() => void copy()}>
              <Copy aria-hidden="true" />
              Copy
            </Button>
          </div>
        </div>
        <figure className="flex flex-col items-center gap-2">
          <img
            src={device.qr_code}
            alt={`QR code of the device key for ${device.device_id}`}
            className="size-48 rounded-lg border bg-white p-2"
          />
          <figcaption className="text-xs text-muted-foreground">
            Scan to load the key onto the collar.
          </figcaption>
        </figure>
        <Button onClick={onDismiss} className="sm:justify-self-end">
          I&apos;ve stored the key
        </Button>
      </CardContent>
    </Card>
  );
}
