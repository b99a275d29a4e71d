import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  seedUser,
  usePostgres,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { listen, openStream, readingOf, ticketFor, until, type SseClient } from '../helpers/sse.js';
import { expectReadingArrivesAt, withSecondInstance } from '../helpers/second-instance.js';

let t: TestApp;
let base: string;
let admin: SeededUser;
const open: SseClient[] = [];
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  base = await listen(t);
});
afterAll(async () => {
  for (const s of open) s.close();
  await t.close();
});

async function stream(user: SeededUser, headers: Record<string, string> = {}, query = '') {
  const s = await openStream(base, await ticketFor(t, user.token), headers, query);
  open.push(s);
  return s;
}
const reading = (temperature: number) => ({ temperature, humidity: 40 });

describe('POST /api/stream/ticket', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/stream/ticket' }), 401);
  });

  it('answers a ticket that is not the token', async () => {
    const u = await seedUser(t);
    const ticket = await ticketFor(t, u.token);
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(ticket).not.toBe(u.token);
  });
});

describe('GET /api/stream', () => {
  it('refuses a missing, unknown, reused or expired ticket', async () => {
    const u = await seedUser(t);
    expectError(await t.app.inject({ url: '/api/stream' }), 400, 'ticket is required');
    expectError(await t.app.inject({ url: '/api/stream?ticket=nope' }), 401);
    const used = await stream(u);
    expect(used.status).toBe(200);
    const again = await ticketFor(t, u.token);
    expect((await openStream(base, again)).status).toBe(200);
    const reuse = await openStream(base, again);
    expect(reuse.status).toBe(401);
    const late = await ticketFor(t, u.token);
    t.clock.advance(61_000);
    const expired = await openStream(base, late);
    expect(expired.status).toBe(401);
    t.clock.advance(-61_000);
  });

  it('is an unbuffered, uncompressed event stream', async () => {
    const u = await seedUser(t);
    const s = await openStream(base, await ticketFor(t, u.token), {
      'accept-encoding': 'gzip, br',
    });
    open.push(s);
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(s.headers.get('x-accel-buffering')).toBe('no');
    expect(s.headers.get('cache-control')).toBe('no-store');
    expect(s.headers.get('content-encoding')).toBeNull();
    // The reply is hijacked, yet it keeps the security headers every answer has (WEB-1).
    expect(s.headers.get('x-content-type-options')).toBe('nosniff');
    expect(s.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('brings an owner the readings of their collars, with what changed on the device', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const s = await stream(owner);
    await postAsCollar(t, c.device_id, c.device_key, { ...reading(31), battery: 55 });
    const e = await s.next(readingOf(c.id));
    expect(e.id).toMatch(/^\w+\.\d+$/);
    expect(e.data).toMatchObject({
      type: 'reading',
      device: c.id,
      reading: { device_id: c.device_id, temperature: 31, battery: 55, status: 'WARNING' },
      patch: {
        temperature_celsius: 31,
        battery_level: 55,
        vitals_status: 'WARNING',
        status: 'active',
      },
    });
  });

  it('never brings an owner another owner’s readings; an admin gets everyone’s', async () => {
    const mine = await seedUser(t);
    const theirs = await seedUser(t);
    const a = await ownedCollar(t, admin, mine);
    const b = await ownedCollar(t, admin, theirs);
    const s = await stream(mine);
    const all = await stream(admin);
    await postAsCollar(t, b.device_id, b.device_key, reading(20));
    await postAsCollar(t, a.device_id, a.device_key, reading(21));
    // Events arrive in order: once mine is here, theirs would have come before it.
    await s.next(readingOf(a.id));
    expect(s.events.some(readingOf(b.id))).toBe(false);
    await all.next(readingOf(a.id));
    expect(all.events.some(readingOf(b.id))).toBe(true);
  });

  it('tells the owner when a collar is released, so screens refetch', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const s = await stream(owner);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
    });
    const e = await s.next((x) => x.event === 'device');
    expect(e.data).toEqual({ type: 'device', device: c.id, change: 'removed' });
  });

  it('replays what a reconnecting client missed (Last-Event-ID), and says resync beyond it', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const first = await stream(owner);
    await postAsCollar(t, c.device_id, c.device_key, reading(22));
    const seen = await first.next(readingOf(c.id));
    first.close();
    await postAsCollar(t, c.device_id, c.device_key, {
      ...reading(23),
      timestamp: Date.now() + 1000,
    });
    await postAsCollar(t, c.device_id, c.device_key, {
      ...reading(24),
      timestamp: Date.now() + 2000,
    });
    const back = await stream(owner, { 'last-event-id': seen.id! });
    const replayed = await back.next(
      (e) =>
        readingOf(c.id)(e) &&
        (e.data as { reading: { temperature: number } }).reading.temperature === 24,
    );
    expect(replayed).toBeDefined();
    const temps = back.events
      .filter(readingOf(c.id))
      .map((e) => (e.data as { reading: { temperature: number } }).reading.temperature);
    expect(temps).toEqual([23, 24]);
    // The same through the query string, for a new EventSource after a fresh ticket.
    const viaQuery = await stream(owner, {}, `&last_event_id=${encodeURIComponent(seen.id!)}`);
    await viaQuery.next(
      (e) => (e.data as { reading?: { temperature: number } })?.reading?.temperature === 24,
    );
    const lost = await stream(owner, { 'last-event-id': 'another-process.5' });
    expect((await lost.next((e) => e.event === 'resync')).data).toEqual({ type: 'resync' });
  });

  it('ends when its session logs out', async () => {
    const u = await seedUser(t);
    const s = await stream(u);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(u.token) });
    await s.ended;
  });

  it('ends at the next heartbeat when its user is deleted, and stops showing a demoted admin others’ events', async () => {
    const gone = await seedUser(t);
    const demoted = await seedUser(t, { role: 'admin' });
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const s1 = await stream(gone);
    const s2 = await stream(demoted);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/users/${gone.id}`,
      headers: bearer(admin.token),
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/auth/users/${demoted.id}/role`,
      headers: bearer(admin.token),
      payload: { role: 'user' },
    });
    await t.app.container.streams.beat();
    await s1.ended;
    await until(() => s2.comments.includes('heartbeat'));
    const mine = await ownedCollar(t, admin, demoted);
    await postAsCollar(t, c.device_id, c.device_key, reading(25));
    await postAsCollar(t, mine.device_id, mine.device_key, reading(26));
    await s2.next(readingOf(mine.id));
    expect(s2.events.some(readingOf(c.id))).toBe(false);
  });
});

describe.runIf(usePostgres)('several server instances on one PostgreSQL', () => {
  it('carry a reading posted to one instance to a stream open on another', async () => {
    await withSecondInstance(t, async (_second, base2) => expectReadingArrivesAt(t, base2));
  });
});
