// PawGuard's service worker (built by vite-plugin-pwa from vite.config.ts; the list of files to
// precache is written in by scripts/precache.mjs). It keeps the app's files for a fast second
// visit and shows pushed alerts as notifications. It never answers /api: live data and every
// change go to the server as they are.
import '@/lib/zod-setup';
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  getCacheKeyForURL,
  matchPrecache,
  precache,
  type PrecacheEntry,
} from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import {
  acknowledgeFromNotification,
  clickTarget,
  DEFAULT_MAX_ACTIONS,
  notificationFromPush,
  readPushData,
} from './notification';
import { isPagesManifest, isScreenPath, pageFileFor, type PagesManifest } from './pages';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | PrecacheEntry)[];
};

/** How long the network may take before the kept copy of a page or file is used instead. */
const NETWORK_TIMEOUT_MS = 3_000;

// A new version takes over as soon as it is installed; a page still open on the old one that
// then misses a file it loads lazily offers a reload (app/error-boundary.tsx).
self.addEventListener('install', () => void self.skipWaiting());
clientsClaim();
cleanupOutdatedCaches();
precache(self.__WB_MANIFEST);

self.addEventListener('activate', (event) => {
  // A page's request starts while the worker is still starting up.
  if (self.registration.navigationPreload)
    event.waitUntil(self.registration.navigationPreload.enable());
});

const sameOrigin = (url: URL) => url.origin === self.location.origin;

/**
 * From the network, so a visit after an update starts on the new version (and the pages, the
 * session hint and the manifest always agree with the files they name); offline, while the
 * server restarts (5xx), or after NETWORK_TIMEOUT_MS, the kept copy instead.
 */
async function networkFirst(
  event: FetchEvent,
  kept: () => Promise<Response | undefined>,
): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NETWORK_TIMEOUT_MS);
  let response: Response | undefined;
  try {
    const preloaded = (await event.preloadResponse) as Response | undefined;
    response = preloaded ?? (await fetch(event.request, { signal: controller.signal }));
  } catch {
    response = undefined;
  } finally {
    clearTimeout(timer);
  }
  if (response && response.status < 500) return response;
  return (await kept()) ?? response ?? Response.error();
}

let pagesManifest: Promise<PagesManifest | null> | null = null;

/** The kept copy of the page the server sends for this path (dist/pages.json says which). */
async function keptPage(pathname: string): Promise<Response | undefined> {
  pagesManifest ??= matchPrecache('/pages.json')
    .then((r) => r?.json())
    .then((m: unknown) => (isPagesManifest(m) ? m : null))
    .catch(() => null);
  const manifest = await pagesManifest;
  return manifest ? matchPrecache(`/${pageFileFor(manifest, pathname)}`) : undefined;
}

// A screen: the page the server would send for its path (a prerendered one, or the shell).
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && sameOrigin(url) && isScreenPath(url.pathname),
  ({ event, url }) => networkFirst(event as FetchEvent, () => keptPage(url.pathname)),
);

// The built scripts and styles: their names change with their content, so the kept copy is
// the file itself, at once.
registerRoute(
  ({ url }) => sameOrigin(url) && url.pathname.startsWith('/assets/'),
  async ({ request }) => (await matchPrecache(request.url)) ?? fetch(request),
);

// Every other kept file (the session hint, the manifest, the icons): as the pages are.
registerRoute(
  ({ url }) => sameOrigin(url) && getCacheKeyForURL(url.href) !== undefined,
  ({ event, url }) => networkFirst(event as FetchEvent, () => matchPrecache(url.href)),
);

/** How many actions this browser shows on a notification (Chrome on a computer: 2). */
function maxActions(): number {
  const max = (self as { Notification?: { maxActions?: unknown } }).Notification?.maxActions;
  return typeof max === 'number' ? max : DEFAULT_MAX_ACTIONS;
}

self.addEventListener('push', (event) => {
  const { title, options } = notificationFromPush(readPushData(event.data), maxActions());
  event.waitUntil(self.registration.showNotification(title, options));
});

/**
 * "Acknowledge" acknowledges the alert then and there, and shows what came of it in the
 * notification's place. "Find a vet" opens /emergency; a click anywhere else, or "Open", the
 * dog's Monitoring card. A PawGuard tab already open is brought forward and taken there;
 * otherwise a new one opens.
 */
self.addEventListener('notificationclick', (event) => {
  const { notification } = event;
  notification.close();
  if (event.action === 'ack') {
    event.waitUntil(
      acknowledgeFromNotification(notification.data, notification.tag).then(({ title, options }) =>
        self.registration.showNotification(title, options),
      ),
    );
    return;
  }
  const url = new URL(clickTarget(event.action, notification.data), self.location.origin);
  event.waitUntil(openPage(url.href));
});

async function openPage(href: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((w) => new URL(w.url).origin === self.location.origin);
  const tab = ours.find((w) => w.focused) ?? ours[0];
  if (tab) {
    try {
      const focused = await tab.focus();
      await focused.navigate(href);
      return;
    } catch {
      // A tab this worker does not control cannot be navigated from here: open a new one.
    }
  }
  await self.clients.openWindow(href);
}

/**
 * The push service replaced this browser's subscription. The worker has no session to tell the
 * server with, so it subscribes again with the same key; the Notification Settings screen sends
 * the new subscription to the server the next time it is opened.
 */
self.addEventListener('pushsubscriptionchange', (event) => {
  const change = event as Event & {
    oldSubscription?: PushSubscription | null;
    newSubscription?: PushSubscription | null;
    waitUntil(promise: Promise<unknown>): void;
  };
  const key = change.oldSubscription?.options.applicationServerKey;
  if (change.newSubscription || !key) return;
  change.waitUntil(
    self.registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: key })
      .catch(() => undefined),
  );
});
