import { useCallback, useEffect, useState } from 'react';
import { pushSubscriptionInputSchema, type PushSubscriptionInput } from '@pawguard/shared';
import { ApiError } from '@/lib/api-client';
import { activeServiceWorker } from '@/lib/service-worker';
import { useCreatePushSubscription } from '../api/create-push-subscription';
import { useDeletePushSubscription } from '../api/delete-push-subscription';

/**
 * Whether this browser can take pushes. An iPhone or iPad only can from PawGuard added to the
 * home screen (Safari 16.4 and later), so there the answer is how to get there.
 */
export type PushSupport = 'supported' | 'ios-not-installed' | 'unsupported';

export function pushSupport(w: Window = window): PushSupport {
  const nav = w.navigator;
  // iPadOS asks for desktop pages and says it is a Mac; only its touch screen tells it apart.
  const ios =
    /iPad|iPhone|iPod/.test(nav.userAgent) ||
    (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
  const installed =
    w.matchMedia?.('(display-mode: standalone)').matches === true ||
    (nav as Navigator & { standalone?: boolean }).standalone === true;
  if (ios && !installed) return 'ios-not-installed';
  if (!('serviceWorker' in nav) || !('PushManager' in w) || !('Notification' in w))
    return 'unsupported';
  return 'supported';
}

/** This browser's push state for PawGuard. */
export type PushDeviceState =
  | 'checking'
  | 'unsupported'
  | 'ios-not-installed'
  /** The person (or the browser's policy) blocked notifications for the site. */
  | 'blocked'
  | 'off'
  | 'on';

/** The VAPID key (base64url) as the bytes PushManager.subscribe takes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made with this key (the server's key may have been replaced). */
function madeWithKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const used = subscription.options?.applicationServerKey;
  if (!used) return true;
  const bytes = new Uint8Array(used);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** What the server takes: the subscription's own JSON, checked against the contract. */
function subscriptionInput(subscription: PushSubscription): PushSubscriptionInput {
  const parsed = pushSubscriptionInputSchema.safeParse(subscription.toJSON());
  if (!parsed.success) throw new PushSetupError('subscription');
  return parsed.data;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Which step of turning push on failed, for words a person can act on. */
export class PushSetupError extends Error {
  constructor(readonly step: 'worker' | 'subscribe' | 'subscription') {
    super(step);
    this.name = 'PushSetupError';
  }
}

/** Why turning push on (or off) failed, in words. */
export function pushErrorMessage(error: unknown): string {
  if (error instanceof PushSetupError) {
    if (error.step === 'worker')
      return 'PawGuard could not start its notification service in this browser. Reload the page and try again.';
    if (error.step === 'subscribe')
      return 'This browser’s push service could not be reached. Check your connection and try again.';
    return 'This browser gave an incomplete push subscription. Try again, or use another browser.';
  }
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Please try again.';
}

/**
 * Push on this browser: whether it can, whether it is on, and turning it on or off.
 * Turning it on asks for the browser's permission (only then, from the person's click), makes
 * a push subscription with the server's key and sends it to the server. While push is on, each
 * visit sends the subscription again: the server keeps it as it is, restores it if it had
 * dropped it, and gives this browser's pushes to whoever is signed in now.
 */
export function usePushDevice(publicKey: string | undefined) {
  const [support] = useState(() => pushSupport());
  const [state, setState] = useState<PushDeviceState>(() =>
    support !== 'supported'
      ? support
      : Notification.permission === 'denied'
        ? 'blocked'
        : 'checking',
  );
  const [busy, setBusy] = useState(false);
  const { mutateAsync: save } = useCreatePushSubscription();
  const { mutateAsync: remove } = useDeletePushSubscription();

  useEffect(() => {
    if (state !== 'checking' || publicKey === undefined) return;
    let cancelled = false;
    (async () => {
      const subscription =
        Notification.permission === 'granted' ? await currentSubscription() : null;
      if (!subscription || !madeWithKey(subscription, base64UrlToBytes(publicKey))) return 'off';
      await save(subscriptionInput(subscription));
      return 'on';
    })()
      .catch((error: unknown) => {
        console.error('Failed to check push notifications on this browser', error);
        return 'off' as const;
      })
      .then((found) => {
        if (!cancelled) setState(found);
      });
    return () => {
      cancelled = true;
    };
  }, [state, publicKey, save]);

  /** Resolves to the new state; rejects with what failed (a PushSetupError or an ApiError). */
  const enable = useCallback(async (): Promise<PushDeviceState> => {
    if (!publicKey) throw new PushSetupError('worker');
    setBusy(true);
    try {
      // First, straight from the click: some browsers only ask for a person's own gesture.
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        const next = permission === 'denied' ? 'blocked' : 'off';
        setState(next);
        return next;
      }
      const registration = await activeServiceWorker().catch(() => {
        throw new PushSetupError('worker');
      });
      const key = base64UrlToBytes(publicKey);
      let subscription = await registration.pushManager.getSubscription();
      if (subscription && !madeWithKey(subscription, key)) {
        await subscription.unsubscribe();
        subscription = null;
      }
      const made = subscription === null;
      subscription ??= await registration.pushManager
        .subscribe({ userVisibleOnly: true, applicationServerKey: key })
        .catch(() => {
          throw new PushSetupError('subscribe');
        });
      try {
        await save(subscriptionInput(subscription));
      } catch (error) {
        // A subscription the server does not know would only ever look like push is on.
        if (made) await subscription.unsubscribe().catch(() => false);
        throw error;
      }
      setState('on');
      return 'on';
    } finally {
      setBusy(false);
    }
  }, [publicKey, save]);

  const disable = useCallback(async (): Promise<void> => {
    setBusy(true);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await remove({ endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      setState('off');
    } finally {
      setBusy(false);
    }
  }, [remove]);

  return { state, busy, enable, disable };
}
