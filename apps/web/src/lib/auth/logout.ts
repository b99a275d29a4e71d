import { successSchema } from '@pawguard/shared';
import { api, apiRequest } from '@/lib/api-client';
import { serviceWorkersSupported } from '@/lib/service-worker';

/** How long logging out waits for this browser to stop taking the account's pushes. */
export const FORGET_PUSH_TIMEOUT_MS = 2_000;

/**
 * This browser stops taking pushes for the person logging out, so that on a shared browser the
 * next person never sees their alerts: the server forgets the subscription (while the session
 * can still say whose it is), and the browser drops it, which ends it at the push service too.
 */
async function forgetPushSubscription(signal: AbortSignal): Promise<void> {
  if (!serviceWorkersSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  if (!subscription) return;
  try {
    await apiRequest('/push/subscriptions', {
      method: 'DELETE',
      body: { endpoint: subscription.endpoint },
      schema: successSchema,
      signal,
    });
  } finally {
    await subscription.unsubscribe();
  }
}

/**
 * Ends the session at the server. First, for at most FORGET_PUSH_TIMEOUT_MS, this browser's
 * pushes stop; nothing that goes wrong there keeps anyone from logging out.
 */
export async function logout(): Promise<void> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const giveUp = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve();
    }, FORGET_PUSH_TIMEOUT_MS);
  });
  try {
    await Promise.race([
      forgetPushSubscription(controller.signal).catch((error: unknown) =>
        console.warn('Push notifications could not be stopped on this browser', error),
      ),
      giveUp,
    ]);
  } finally {
    clearTimeout(timer);
  }
  await api.post('/auth/logout', undefined, successSchema);
}
