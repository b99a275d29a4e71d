import { useId, type ReactNode } from 'react';
import { toast } from 'sonner';
import { BellRing, CheckCircle2, Send } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { usePushPublicKey } from '../api/get-push-public-key';
import { usePushSubscriptions } from '../api/get-push-subscriptions';
import { useSendTestPush } from '../api/send-test-push';
import { pushErrorMessage, usePushDevice, type PushDeviceState } from '../hooks/use-push-device';
import { PushSettingsForm } from './push-settings-form';

/**
 * "Push notifications": alerts on this phone or computer as they happen. Push on this browser
 * (asking for the browser's permission only when the person turns it on), a test push, and
 * which alerts push (for all of the person's browsers). Where push cannot work, it says why:
 * an unsupported browser, notifications blocked, or an iPhone where PawGuard is not yet on
 * the home screen.
 */
export function PushNotificationsCard({ className }: { className?: string }) {
  const titleId = useId();
  const publicKey = usePushPublicKey();
  const device = usePushDevice(publicKey.data);

  return (
    <section aria-labelledby={titleId} className={className}>
      <Card>
        <CardHeader>
          <CardTitle as="h2" id={titleId} className="flex items-center gap-2">
            <BellRing className="size-5 text-orange-600" aria-hidden="true" />
            Push notifications
          </CardTitle>
          <CardDescription>
            Alerts on this phone or computer as they happen, even while PawGuard is closed.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <div aria-live="polite" className="grid gap-3">
            {device.state === 'checking' && publicKey.isError ? (
              <div role="alert" className="grid justify-items-start gap-2 text-sm">
                <p>Push notifications could not be set up just now.</p>
                <Button variant="outline" size="sm" onClick={() => void publicKey.refetch()}>
                  Try Again
                </Button>
              </div>
            ) : (
              <ThisDevice
                state={device.state}
                busy={device.busy}
                onEnable={() =>
                  device.enable().then(
                    (state) => {
                      if (state === 'on')
                        toast.success('Success', {
                          description: 'Push notifications are on for this device',
                        });
                    },
                    (error: unknown) => {
                      console.error('Failed to turn push notifications on', error);
                      toast.error('Error', { description: pushErrorMessage(error) });
                    },
                  )
                }
                onDisable={() =>
                  device.disable().then(
                    () =>
                      toast.success('Success', {
                        description: 'Push notifications are off for this device',
                      }),
                    (error: unknown) => {
                      console.error('Failed to turn push notifications off', error);
                      toast.error('Error', { description: pushErrorMessage(error) });
                    },
                  )
                }
              />
            )}
          </div>
          <PushSettingsForm className="border-t pt-5" />
        </CardContent>
      </Card>
    </section>
  );
}

function ThisDevice({
  state,
  busy,
  onEnable,
  onDisable,
}: {
  state: PushDeviceState;
  busy: boolean;
  onEnable: () => void;
  onDisable: () => void;
}) {
  switch (state) {
    case 'checking':
      return (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Checking this browser...
        </p>
      );
    case 'unsupported':
      return (
        <Note>
          This browser cannot receive push notifications. A current version of Chrome, Edge, Firefox
          or Safari can; alerts still reach you in PawGuard and by e-mail.
        </Note>
      );
    case 'ios-not-installed':
      return (
        <Note>
          <p className="mb-2">
            On iPhone and iPad, PawGuard can send push notifications once it is on your home screen:
          </p>
          <ol className="grid list-decimal gap-1 pl-5">
            <li>In Safari, tap Share.</li>
            <li>Tap Add to Home Screen.</li>
            <li>Open PawGuard from the home screen and turn push notifications on there.</li>
          </ol>
        </Note>
      );
    case 'blocked':
      return (
        <Note>
          Notifications are blocked for PawGuard in this browser. To allow them, open this site’s
          settings (the icon at the left of the address bar), set Notifications to Allow, then
          reload this page.
        </Note>
      );
    case 'off':
      return (
        <div className="grid justify-items-start gap-3">
          <p className="text-sm">Off for this device.</p>
          <Button type="button" onClick={onEnable} disabled={busy}>
            <BellRing aria-hidden="true" />
            {busy ? 'Turning on...' : 'Enable on this device'}
          </Button>
          <p className="text-sm text-muted-foreground">
            Your browser will ask whether PawGuard may show notifications: choose Allow.
          </p>
        </div>
      );
    case 'on':
      return (
        <div className="grid gap-3">
          <p className="flex items-center gap-2 text-sm font-medium">
            <CheckCircle2 className="size-4 text-green-700" aria-hidden="true" />
            On for this device
          </p>
          <div className="flex flex-wrap gap-2">
            <TestPushButton />
            <Button type="button" variant="outline" onClick={onDisable} disabled={busy}>
              {busy ? 'Turning off...' : 'Turn off on this device'}
            </Button>
          </div>
          <BrowserCount />
        </div>
      );
  }
}

function Note({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      role="note"
      className={cn(
        'rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** "Send test push": one to each of the person's browsers, the server's answer as a toast. */
function TestPushButton() {
  const test = useSendTestPush();
  const send = () =>
    test.mutate(undefined, {
      onSuccess: (answer) => {
        if (answer.success) toast.success('Test Push Sent', { description: answer.message });
        else toast.error('Test Failed', { description: answer.message });
      },
      onError: (error) => {
        const text = error instanceof ApiError && error.status > 0 ? error.message : null;
        toast.error('Error', { description: text ?? 'Failed to send test push' });
      },
    });
  return (
    <Button type="button" variant="outline" onClick={send} disabled={test.isPending}>
      <Send aria-hidden="true" />
      {test.isPending ? 'Sending...' : 'Send test push'}
    </Button>
  );
}

/** How many of the person's browsers take pushes: a test push goes to each. */
function BrowserCount() {
  const { data } = usePushSubscriptions();
  if (!data || data.length < 2) return null;
  return (
    <p className="text-sm text-muted-foreground">
      Push is on in {data.length} of your browsers; a test push goes to each of them.
    </p>
  );
}
