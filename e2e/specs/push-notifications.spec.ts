import type { CDPSession } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import {
  addCollar,
  addPet,
  bearer,
  postReadings,
  registerUser,
  TEST_PASSWORD,
} from '../support/api';
import { header, signInWithToken, toast } from '../support/app';
import { expectAccessible } from '../support/axe';
import { bodyOf, mailsTo } from '../support/mail';

/**
 * The browser here reaches no push service, so PushManager.subscribe could never succeed. This
 * stands in for it: a subscription as a browser makes one, with a real P-256 key and secret,
 * whose endpoint is an https address on loopback (run.mjs lets the server take those). What
 * the server would push to it is delivered below through DevTools instead.
 */
function stubPushService(endpoint: string) {
  type Fake = {
    endpoint: string;
    expirationTime: null;
    options: { userVisibleOnly: boolean; applicationServerKey: ArrayBuffer | null };
    toJSON(): unknown;
    getKey(): null;
    unsubscribe(): Promise<boolean>;
  };
  let current: Fake | null = null;
  const base64url = (bytes: ArrayBuffer) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  PushManager.prototype.getSubscription = async () => current as unknown as PushSubscription;
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ]);
    const p256dh = base64url(await crypto.subtle.exportKey('raw', pair.publicKey));
    const auth = base64url(crypto.getRandomValues(new Uint8Array(16)).buffer);
    const key = options?.applicationServerKey;
    const keyBytes =
      !key || typeof key === 'string'
        ? null
        : (ArrayBuffer.isView(key)
            ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength)
            : new Uint8Array(key)
          ).slice().buffer;
    const fake: Fake = {
      endpoint,
      expirationTime: null,
      options: {
        userVisibleOnly: options?.userVisibleOnly ?? false,
        applicationServerKey: keyBytes,
      },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      getKey: () => null,
      unsubscribe: async () => {
        current = null;
        return true;
      },
    };
    current = fake;
    return fake as unknown as PushSubscription;
  };
}

/** The id DevTools knows PawGuard's service worker registration by, once it is active. */
async function activeRegistrationId(cdp: CDPSession): Promise<string> {
  let found: ((id: string) => void) | null = null;
  const active = new Promise<string>((resolve) => (found = resolve));
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    const version = versions.find((v) => v.status === 'activated');
    if (version) found?.(version.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  return active;
}

test('an owner turns push on and a pushed alert shows as a notification with Open and Find a vet', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId, 'Biscuit collar');
  // A cool reading: the card shows, and no alert is raised.
  await postReadings(request, collar, [{ temperature: 22, humidity: 40 }]);

  await context.grantPermissions(['notifications'], { origin });
  const endpoint = `https://127.0.0.1:9/push/${crypto.randomUUID()}`;
  await context.addInitScript(stubPushService, endpoint);

  await signInWithToken(page, owner.token, '/notifications');
  const card = page.getByRole('region', { name: 'Push notifications' });
  await expect(card.getByText('Off for this device.')).toBeVisible();
  await expectAccessible(page, 'the Push notifications card');

  const subscribed = page.waitForResponse(
    (r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST',
  );
  await card.getByRole('button', { name: 'Enable on this device' }).click();
  const answer = await subscribed;
  expect(answer.status(), await answer.text()).toBe(201);
  expect(JSON.parse(answer.request().postData() ?? '{}')).toMatchObject({ endpoint });
  await expect(card.getByText('On for this device')).toBeVisible();
  await expect(toast(page, 'Success')).toContainText('Push notifications are on for this device');

  // What the server pushes for a Critical heat alert (pushPayloadSchema), delivered to the
  // service worker as a push service would.
  const url = `/monitoring#collar-${collar.id}`;
  const payload = {
    title: 'CRITICAL — Biscuit',
    body: '40.6°C (105.1°F) — Collar temperature at or above your critical threshold. Cool them now with cool water and call your vet.',
    url,
    tag: `alert-e2e-${collar.id}`,
    level: 'CRITICAL',
    alert_id: `e2e-${collar.id}`,
    urgent: true,
    ack_token: null,
    test: false,
  };
  const cdp = await context.newCDPSession(page);
  const registrationId = await activeRegistrationId(cdp);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId,
    data: JSON.stringify(payload),
  });

  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        requireInteraction: n.requireInteraction,
        actions: (n as Notification & { actions: { action: string; title: string }[] }).actions.map(
          (a) => `${a.action}: ${a.title}`,
        ),
        url: (n.data as { url: string }).url,
      }));
    });
  await expect.poll(shown).toEqual([
    {
      title: 'CRITICAL — Biscuit',
      body: payload.body,
      tag: payload.tag,
      requireInteraction: true,
      actions: ['open: Open', 'vet: Find a vet'],
      url,
    },
  ]);

  // Where Open leads: Biscuit's card on Monitoring, brought into view with focus on it.
  await page.goto(url);
  const biscuit = page.locator(`#collar-${collar.id}`);
  await expect(biscuit).toBeFocused();
  await expect(biscuit.getByRole('heading', { name: 'Biscuit collar' })).toBeInViewport();
});

test('an owner acknowledges a pushed heat alert with its Acknowledge action, without opening PawGuard', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId, 'Biscuit collar');
  // 42 °C is 107.6 °F: a Critical heat alert, mailed at once with its acknowledge link.
  await postReadings(request, collar, [{ temperature: 42, humidity: 40 }]);
  await expect
    .poll(() => mailsTo(owner.email).filter((m) => m.subject.startsWith('[CRITICAL] Biscuit')))
    .toHaveLength(1);
  const [mail] = mailsTo(owner.email).filter((m) => m.subject.startsWith('[CRITICAL] Biscuit'));
  // The push for the same alert and person carries the same kind of token as the mail's link.
  const ackToken = /\/acknowledge#([A-Za-z0-9_.-]+)/.exec(bodyOf(mail!.raw))![1]!;

  await context.grantPermissions(['notifications'], { origin });
  await context.addInitScript(stubPushService, `https://127.0.0.1:9/push/${crypto.randomUUID()}`);
  await signInWithToken(page, owner.token, '/notifications');
  const card = page.getByRole('region', { name: 'Push notifications' });
  await card.getByRole('button', { name: 'Enable on this device' }).click();
  await expect(card.getByText('On for this device')).toBeVisible();

  const cdp = await context.newCDPSession(page);
  const registrationId = await activeRegistrationId(cdp);
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId,
    data: JSON.stringify({
      title: 'CRITICAL — Biscuit',
      body: '42.0°C (107.6°F) — Collar temperature at or above your critical threshold.',
      url: `/monitoring#collar-${collar.id}`,
      tag: `alert-e2e-ack-${collar.id}`,
      level: 'CRITICAL',
      alert_id: null,
      urgent: true,
      ack_token: ackToken,
      test: false,
    }),
  });

  const shown = () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        requireInteraction: n.requireInteraction,
        actions: (n as Notification & { actions: { action: string }[] }).actions.map(
          (a) => a.action,
        ),
      }));
    });
  // Chromium on a computer shows two actions: Acknowledge first, beside Find a vet.
  const maxActions = await page.evaluate(
    () => (Notification as unknown as { maxActions: number }).maxActions,
  );
  await expect
    .poll(async () => (await shown())[0]?.actions)
    .toEqual(maxActions >= 3 ? ['open', 'vet', 'ack'] : ['ack', 'vet']);

  // DevTools cannot press a notification's button: the worker gets the click the browser would
  // give it for Acknowledge.
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate(async () => {
    const scope = self as unknown as {
      registration: { getNotifications(): Promise<Notification[]> };
      dispatchEvent(event: Event): boolean;
    };
    const [notification] = await scope.registration.getNotifications();
    const NotificationEventClass = (
      self as unknown as {
        NotificationEvent: new (
          type: string,
          init: { notification: Notification; action: string },
        ) => Event;
      }
    ).NotificationEvent;
    scope.dispatchEvent(
      new NotificationEventClass('notificationclick', {
        notification: notification!,
        action: 'ack',
      }),
    );
  });

  await expect.poll(shown).toEqual([
    {
      title: 'Acknowledged — Biscuit',
      body: 'PawGuard keeps watching.',
      requireInteraction: false,
      actions: [],
    },
  ]);
  const alerts = await request.get(`/api/devices/${collar.id}/alerts?resolved=false`, {
    headers: bearer(owner.token),
  });
  expect((await alerts.json()).alerts[0]).toMatchObject({ acknowledged_by_name: owner.name });
});

test('logging out stops this browser’s pushes, so the next person on it never sees the alerts', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const owner = await registerUser(request);
  await context.grantPermissions(['notifications'], { origin });
  await context.addInitScript(stubPushService, `https://127.0.0.1:9/push/${crypto.randomUUID()}`);
  await signInWithToken(page, owner.token, '/notifications');
  const card = page.getByRole('region', { name: 'Push notifications' });
  await card.getByRole('button', { name: 'Enable on this device' }).click();
  await expect(card.getByText('On for this device')).toBeVisible();

  const forgotten = page.waitForResponse(
    (r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'DELETE',
  );
  await header(page).getByRole('button', { name: 'Logout' }).filter({ visible: true }).click();
  expect((await forgotten).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  // This browser dropped its subscription too.
  expect(
    await page.evaluate(async () =>
      (await navigator.serviceWorker.ready).pushManager.getSubscription(),
    ),
  ).toBeNull();

  // The server pushes to none of the owner's browsers now.
  const login = await request.post('/api/auth/login', {
    data: { email: owner.email, password: TEST_PASSWORD },
  });
  const { token } = (await login.json()) as { token: string };
  const subscriptions = await request.get('/api/push/subscriptions', { headers: bearer(token) });
  expect((await subscriptions.json()).subscriptions).toEqual([]);
});
