import { env } from '@/config/env';

/** The built service worker (src/service-worker/sw.ts): its files for a fast visit, and pushes. */
export const SERVICE_WORKER_URL = '/sw.js';

/** How long an installing service worker may take before enabling push gives up on it. */
const ACTIVATION_TIMEOUT_MS = 30_000;

export const serviceWorkersSupported = (): boolean =>
  typeof navigator !== 'undefined' && 'serviceWorker' in navigator;

/**
 * Registers the service worker once the page has loaded, so that the files it keeps download
 * after the page's own. Production builds only: the dev server has no sw.js. A failure costs
 * nothing but the worker, so it is only noted.
 */
export function registerServiceWorkerAfterLoad(): void {
  if (!env.isProduction || !serviceWorkersSupported()) return;
  const register = () => {
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL, { scope: '/' })
      .catch((error: unknown) => console.warn('The service worker could not be registered', error));
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * This page's service worker registration once it has an active worker (push needs one):
 * registers it now if the page has not yet. Rejects if it does not become active in time.
 */
export async function activeServiceWorker(): Promise<ServiceWorkerRegistration> {
  const registration =
    (await navigator.serviceWorker.getRegistration()) ??
    (await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }));
  if (registration.active) return registration;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('The service worker did not become active')),
      ACTIVATION_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
