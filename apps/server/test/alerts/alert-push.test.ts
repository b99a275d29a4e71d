import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fahrenheitToCelsius, pushPayloadSchema } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { startPushReceiver, type PushReceiver } from '../helpers/push-receiver.js';
import { samplePushSubscription } from '../helpers/route-samples.js';

/**
 * Web Push end to end (docs/push.md): readings through the real ingest path, the alert's
 * outbox rows, the push worker, web-push's encryption and a real https push receiver on
 * loopback that decrypts each push with the subscription's own keys. The server trusts the
 * receiver's certificate through NODE_EXTRA_CA_CERTS (test/global-setup.ts), as it would a
 * push service's. Time moves on the test clock.
 */
let t: TestApp;
let receiver: PushReceiver;
let admin: SeededUser;
beforeAll(async () => {
  receiver = await startPushReceiver();
  t = await createTestApp({ env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' } });
  admin = await seedUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
  receiver.errors.length = 0;
});

type Collar = Awaited<ReturnType<typeof ownedCollar>>;
let seq = 0;
async function post(c: Collar, fahrenheit: number) {
  const at = new Date(t.clock.now().getTime() - 60_000 + ++seq * 10).toISOString();
  const res = await postAsCollar(t, c.device_id, c.device_key, {
    timestamp: at,
    temperature: fahrenheitToCelsius(fahrenheit),
    humidity: 10,
  });
  expect(res.statusCode, res.body).toBe(201);
}
const deliver = () => t.app.container.pushWorker.drain();

async function subscribe(u: SeededUser, sub: object) {
  return t.app.inject({
    method: 'POST',
    url: '/api/push/subscriptions',
    headers: bearer(u.token),
    payload: sub,
  });
}

async function owner() {
  const u = await seedUser(t);
  const c = await ownedCollar(t, admin, u, 'Biscuit');
  const sub = receiver.subscription(u.id);
  const res = await subscribe(u, sub);
  expect(res.statusCode, res.body).toBe(201);
  return { u, c, sub };
}

const pushRows = () =>
  t.app.container.db.selectFrom('outbox').selectAll().where('channel', '=', 'push').execute();

describe('an alert reaches the phone', () => {
  it('a CRITICAL reading pushes "CRITICAL — Biscuit", urgent, decryptable with the browser’s own keys, opening the dog’s Monitoring card', async () => {
    const { c, sub } = await owner();
    await post(c, 110);
    expect(await deliver()).toBe(1);
    const [push] = await receiver.waitFor(1);
    expect(push!.endpoint).toBe(sub.endpoint);
    const payload = pushPayloadSchema.parse(push!.payload);
    expect(payload.title).toBe('CRITICAL — Biscuit');
    expect(payload.body).toMatch(/°F/);
    expect(payload.body).toMatch(/call your vet/);
    expect(payload.url).toBe(`/monitoring#collar-${c.id}`);
    expect(payload.level).toBe('CRITICAL');
    expect(payload.urgent).toBe(true);
    expect(payload.ack_token).toEqual(expect.any(String));
    expect(push!.headers.urgency).toBe('high');
    expect(Number(push!.headers.ttl)).toBe(7200);
    expect(push!.vapid.aud).toBe(new URL(receiver.url).origin);
    // The push's "Acknowledge" action acknowledges it, without a sign-in.
    const ack = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/acknowledge-link',
      payload: { token: payload.ack_token },
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().alert.acknowledged_at).toEqual(expect.any(String));
  });

  it('a WARNING pushes at normal urgency; a person who wants only DANGER and above gets none for it', async () => {
    const { c } = await owner();
    await post(c, 90);
    await deliver();
    const [push] = await receiver.waitFor(1);
    expect(pushPayloadSchema.parse(push!.payload).title).toBe('WARNING — Biscuit');
    expect(pushPayloadSchema.parse(push!.payload).ack_token).toBeNull();
    expect(push!.headers.urgency).toBe('normal');

    const other = await owner();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/push/settings',
      headers: bearer(other.u.token),
      payload: { min_level: 'DANGER', offline: false, low_battery: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    const before = (await pushRows()).length;
    await post(other.c, 90);
    expect((await pushRows()).length).toBe(before);
    // Their escalation to CRITICAL does push.
    await post(other.c, 110);
    await deliver();
    const pushes = await receiver.waitFor(2);
    expect(pushPayloadSchema.parse(pushes[1]!.payload).title).toBe('CRITICAL — Biscuit');
  });

  it('a browser the push service no longer knows (410) is deleted with what waits for it', async () => {
    const { u, c, sub } = await owner();
    receiver.respondWith(410, { endpoint: sub.endpoint });
    await post(c, 110);
    expect(await deliver()).toBe(0);
    await receiver.waitFor(1);
    const list = await t.app.inject({
      url: '/api/push/subscriptions',
      headers: bearer(u.token),
    });
    expect(list.json().subscriptions).toEqual([]);
    expect((await pushRows()).filter((r) => r.status === 'pending')).toEqual([]);
  });

  it('a push service outage is retried with backoff until it takes the push', async () => {
    const { c, sub } = await owner();
    receiver.respondWith(503, { endpoint: sub.endpoint, times: 2 });
    await post(c, 110);
    expect(await deliver()).toBe(0);
    await receiver.waitFor(1);
    // Not due again yet.
    expect(await deliver()).toBe(0);
    t.clock.advance(5_000);
    expect(await deliver()).toBe(0);
    await receiver.waitFor(2);
    t.clock.advance(10_000);
    expect(await deliver()).toBe(1);
    const pushes = await receiver.waitFor(3);
    expect(pushes.map((p) => p.reply)).toEqual([503, 503, 201]);
    const [row] = (await pushRows()).filter((r) => r.push_subscription_id !== null).slice(-1);
    expect(row!.status).toBe('sent');
  });

  it('the test push reaches every browser of the person at once', async () => {
    const { u } = await owner();
    const second = receiver.subscription('second');
    expect((await subscribe(u, second)).statusCode).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/push/test',
      headers: bearer(u.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      sent: 2,
      message: 'Test push sent to your 2 browsers.',
    });
    const pushes = await receiver.waitFor(2);
    expect(pushes.map((p) => pushPayloadSchema.parse(p.payload).title)).toEqual([
      'Test — PawGuard',
      'Test — PawGuard',
    ]);
  });

  it('never logs or answers a subscription’s keys', async () => {
    const { u, c, sub } = await owner();
    await post(c, 110);
    await deliver();
    await receiver.waitFor(1);
    const list = await t.app.inject({ url: '/api/push/subscriptions', headers: bearer(u.token) });
    expect(list.body).not.toContain(sub.keys.auth);
    expect(list.json().subscriptions[0].endpoint_host).toBe(new URL(receiver.url).host);
    const logs = t.logs().join('\n');
    expect(logs).not.toContain(sub.keys.auth);
    expect(logs).not.toContain(sub.keys.p256dh);
    expect(logs).not.toContain(new URL(sub.endpoint).pathname);
  });
});

describe('PUSH-1: the endpoint is a URL the server calls', () => {
  let strict: TestApp;
  let u: SeededUser;
  beforeAll(async () => {
    strict = await createTestApp();
    u = await seedUser(strict);
  });
  afterAll(() => strict.close());
  const sub = (endpoint: string) => ({ ...samplePushSubscription(), endpoint });
  const post = (app: TestApp, user: SeededUser, endpoint: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/push/subscriptions',
      headers: bearer(user.token),
      payload: sub(endpoint),
    });

  it.each([
    ['http', 'http://8.8.8.8/push/1', 'endpoint must be an https address'],
    [
      'loopback',
      'https://127.0.0.1:8443/push/1',
      'endpoint must be an https address of a public push service',
    ],
    [
      'loopback by name',
      'https://localhost/push/1',
      'endpoint must be an https address of a public push service',
    ],
    [
      'IPv6 loopback',
      'https://[::1]/push/1',
      'endpoint must be an https address of a public push service',
    ],
    [
      'private',
      'https://10.1.2.3/push/1',
      'endpoint must be an https address of a public push service',
    ],
    [
      'private 192.168',
      'https://192.168.1.10/push/1',
      'endpoint must be an https address of a public push service',
    ],
    [
      'link-local metadata',
      'https://169.254.169.254/latest/meta-data',
      'endpoint must be an https address of a public push service',
    ],
    [
      'IPv4-mapped loopback',
      'https://[::ffff:127.0.0.1]/push/1',
      'endpoint must be an https address of a public push service',
    ],
    [
      'credentials',
      // secretlint-disable-next-line -- a made-up credential, to check that it is refused
      'https://user:secret@8.8.8.8/push/1',
      'endpoint must not carry a user name or password',
    ],
    ['not a URL', 'push me', 'endpoint must be a URL'],
  ])('%s → 400, nothing stored', async (_name, endpoint, error) => {
    const res = await post(strict, u, endpoint);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error });
    const list = await strict.app.inject({
      url: '/api/push/subscriptions',
      headers: bearer(u.token),
    });
    expect(list.json().subscriptions).toEqual([]);
  });

  it('a public address is accepted; PUSH_ALLOW_PRIVATE_ENDPOINTS lets loopback through, never link-local or http', async () => {
    expect((await post(strict, u, 'https://8.8.8.8/push/ok')).statusCode).toBe(201);
    const lenient = await seedUser(t);
    expect((await post(t, lenient, 'https://127.0.0.1:8443/push/1')).statusCode).toBe(201);
    expect((await post(t, lenient, 'https://169.254.169.254/x')).statusCode).toBe(400);
    expect((await post(t, lenient, 'http://127.0.0.1/push/1')).statusCode).toBe(400);
  });

  it('is checked again at send time: a stored loopback endpoint is never called without the switch', async () => {
    const loopback = receiver.subscription('stored');
    const { repos, db, pushWorker } = strict.app.container;
    // As if it had passed at subscribe time (a name that resolved elsewhere then).
    const row = await repos.push.subscribe(
      {
        user_id: u.id,
        endpoint: loopback.endpoint,
        p256dh: loopback.keys.p256dh,
        auth: loopback.keys.auth,
        created_at: strict.clock.now().toISOString(),
      },
      5,
    );
    await repos.push.enqueue(
      { idempotencyKey: 'send-time-check', subscriptionId: row.id, title: 'T', payload: '{}' },
      strict.clock.now().toISOString(),
    );
    expect(await pushWorker.drain()).toBe(0);
    const stored = await db
      .selectFrom('outbox')
      .selectAll()
      .where('idempotency_key', '=', 'send-time-check')
      .executeTakeFirstOrThrow();
    expect(stored.status).toBe('failed');
    expect(receiver.received).toEqual([]);
  });

  it('refuses keys that are not a P-256 point and a 16-byte secret', async () => {
    const bad = (keys: object) =>
      strict.app.inject({
        method: 'POST',
        url: '/api/push/subscriptions',
        headers: bearer(u.token),
        payload: {
          ...samplePushSubscription(),
          keys: { ...samplePushSubscription().keys, ...keys },
        },
      });
    const notOnCurve = Buffer.alloc(65, 1);
    notOnCurve[0] = 4;
    const r1 = await bad({ p256dh: notOnCurve.toString('base64url') });
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toEqual({ error: 'keys.p256dh is not a valid key' });
    const r2 = await bad({ auth: Buffer.alloc(12, 7).toString('base64url') });
    expect(r2.json()).toEqual({ error: 'keys.auth is not a valid key' });
  });

  it('one endpoint subscribed several times at once (a double click) is stored once', async () => {
    const d = await seedUser(strict);
    const one = { ...samplePushSubscription() };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        strict.app.inject({
          method: 'POST',
          url: '/api/push/subscriptions',
          headers: bearer(d.token),
          payload: one,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(await strict.app.container.repos.push.listForUser(d.id)).toHaveLength(1);
  });

  it('keeps at most 5 browsers a person, the oldest making way', async () => {
    const many = await seedUser(strict);
    const endpoints: string[] = [];
    for (let i = 0; i < 7; i++) {
      const e = `https://8.8.8.8/push/many-${i}`;
      endpoints.push(e);
      strict.clock.advance(1_000);
      expect((await post(strict, many, e)).statusCode).toBe(201);
    }
    const rows = await strict.app.container.repos.push.listForUser(many.id);
    expect(rows.map((r) => r.endpoint)).toEqual(endpoints.slice(2).reverse());
  });

  it('unsubscribing ends this browser’s pushes; another person’s endpoint is left alone', async () => {
    const a = await seedUser(strict);
    const b = await seedUser(strict);
    expect((await post(strict, a, 'https://8.8.8.8/push/a')).statusCode).toBe(201);
    const del = (user: SeededUser, endpoint: string) =>
      strict.app.inject({
        method: 'DELETE',
        url: '/api/push/subscriptions',
        headers: bearer(user.token),
        payload: { endpoint },
      });
    expect((await del(b, 'https://8.8.8.8/push/a')).statusCode).toBe(200);
    expect(await strict.app.container.repos.push.listForUser(a.id)).toHaveLength(1);
    expect((await del(a, 'https://8.8.8.8/push/a')).statusCode).toBe(200);
    expect(await strict.app.container.repos.push.listForUser(a.id)).toHaveLength(0);
  });

  it('settings: defaults, saved, and refused when out of range', async () => {
    const p = await seedUser(strict);
    const get = await strict.app.inject({ url: '/api/push/settings', headers: bearer(p.token) });
    expect(get.json()).toEqual({
      settings: { min_level: 'WARNING', offline: false, low_battery: false },
    });
    const bad = await strict.app.inject({
      method: 'PUT',
      url: '/api/push/settings',
      headers: bearer(p.token),
      payload: { min_level: 'SAFE', offline: false, low_battery: false },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/min_level must be WARNING, DANGER or CRITICAL/);
  });
});

describe('the connection checks the address it connects to (DNS rebinding)', () => {
  it('refuses a host that resolves to loopback at send time, and retries a look-up that failed', async () => {
    const { PushSender, classifyPushFailure } = await import('../../src/services/push-sender.js');
    const { PushEndpointError } = await import('../../src/services/push-endpoint.js');
    let calls = 0;
    // Public when the endpoint is checked, loopback when the connection looks it up.
    const lookup = async () => [{ address: ++calls === 1 ? '8.8.8.8' : '127.0.0.1', family: 4 }];
    const sender = new PushSender({
      vapid: (await import('web-push')).default.generateVAPIDKeys(),
      subject: 'mailto:ops@example.com',
      allowPrivate: false,
      lookup,
    });
    const sub = receiver.subscription('rebinding');
    const err = await sender
      .send(
        { endpoint: 'https://push.example.test/push/x', keys: sub.keys },
        { payload: '{}', urgent: true, ttlSeconds: 60 },
      )
      .then(
        () => null,
        (e: unknown) => e,
      );
    sender.close();
    expect((err as { code?: string }).code).toBe('EPUSHADDRESS');
    expect(classifyPushFailure(err)).toBe('refused');
    expect(receiver.received).toEqual([]);
    // A host that could not be looked up just now is an outage, retried; a refused one is final.
    expect(classifyPushFailure(new PushEndpointError('x', 'lookup'))).toBe('unavailable');
    expect(classifyPushFailure(new PushEndpointError('x', 'policy'))).toBe('refused');
  });
});
