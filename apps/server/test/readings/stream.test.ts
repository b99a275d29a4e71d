import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  login,
  seedUser,
  TEST_PASSWORD,
  usePostgres,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { listen, openStream, readingOf, ticketFor, until, type SseClient } from '../helpers/sse.js';
import { expectReadingArrivesAt, withSecondInstance } from '../helpers/second-instance.js';
import { STREAMS_PER_SESSION } from '../../src/services/stream-hub.js';

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
/** A second session of the same user. */
const signIn = (user: SeededUser) => login(t, user.email, TEST_PASSWORD);

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
      timestamp: t.clock.now().getTime() + 1000,
    });
    await postAsCollar(t, c.device_id, c.device_key, {
      ...reading(24),
      timestamp: t.clock.now().getTime() + 2000,
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

  it('ends when its session logs out, and leaves the same user’s other sessions open', async () => {
    const u = await seedUser(t);
    const c = await ownedCollar(t, admin, u);
    const s = await stream(u);
    const other = await signIn(u);
    const kept = await openStream(base, await ticketFor(t, other));
    open.push(kept);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(u.token) });
    await s.ended;
    await postAsCollar(t, c.device_id, c.device_key, reading(24));
    await kept.next(readingOf(c.id));
  });

  it('ends at once, not at the next heartbeat, when its user is deleted or their role changes', async () => {
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
    await s1.ended;
    await t.app.inject({
      method: 'PUT',
      url: `/api/auth/users/${demoted.id}/role`,
      headers: bearer(admin.token),
      payload: { role: 'user' },
    });
    // Before any heartbeat has run: the demoted admin's stream is gone at once …
    await s2.ended;
    await postAsCollar(t, c.device_id, c.device_key, reading(25));
    expect(s2.events.some(readingOf(c.id))).toBe(false);
    // … and the stream they open again shows their own collars, not other owners'.
    const again = await stream(demoted);
    const mine = await ownedCollar(t, admin, demoted);
    await postAsCollar(t, c.device_id, c.device_key, reading(26));
    await postAsCollar(t, mine.device_id, mine.device_key, reading(27));
    await again.next(readingOf(mine.id));
    expect(again.events.some(readingOf(c.id))).toBe(false);
  });

  it('RES-9: keeps at most 5 streams a session: the sixth closes the oldest, and so on', async () => {
    const u = await seedUser(t);
    const c = await ownedCollar(t, admin, u);
    const streams: SseClient[] = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) streams.push(await stream(u));
    streams.push(await stream(u));
    expect(streams[5]!.status).toBe(200);
    await streams[0]!.ended;
    // Told why, so the browser tab waits instead of taking a stream back at once.
    expect(streams[0]!.events.some((e) => e.event === 'superseded')).toBe(true);
    expect(streams[1]!.events.some((e) => e.event === 'superseded')).toBe(false);
    // Twelve in all: the last five receive, the first seven have ended.
    for (let i = 0; i < 6; i++) streams.push(await stream(u));
    await Promise.all(streams.slice(0, 7).map((s) => s.ended));
    await postAsCollar(t, c.device_id, c.device_key, reading(28));
    for (const s of streams.slice(7)) await s.next(readingOf(c.id));
    for (const s of streams.slice(0, 7)) expect(s.events.some(readingOf(c.id))).toBe(false);
  });

  it('RES-9: keeps at most 10 streams an account over all its sessions, closing the oldest', async () => {
    const u = await seedUser(t);
    const c = await ownedCollar(t, admin, u);
    const streams: SseClient[] = [];
    // Two streams a session over six sessions: no session reaches its own cap.
    for (let i = 0; i < 6; i++) {
      const token = await signIn(u);
      for (let j = 0; j < 2; j++) {
        const s = await openStream(base, await ticketFor(t, token));
        open.push(s);
        streams.push(s);
      }
    }
    await Promise.all([streams[0]!.ended, streams[1]!.ended]);
    await postAsCollar(t, c.device_id, c.device_key, reading(29));
    for (const s of streams.slice(2)) await s.next(readingOf(c.id));
    expect(streams[0]!.events.some(readingOf(c.id))).toBe(false);
  });
});

describe.runIf(usePostgres)('several server instances on one PostgreSQL', () => {
  it('carry a reading posted to one instance to a stream open on another', async () => {
    await withSecondInstance(t, async (_second, base2) => expectReadingArrivesAt(t, base2));
  });

  it('end a stream on another instance at once when its session logs out or its admin is demoted', async () => {
    await withSecondInstance(t, async (second, base2) => {
      const u = await seedUser(t);
      const demoted = await seedUser(t, { role: 'admin' });
      const s1 = await openStream(base2, await ticketFor(t, u.token));
      const s2 = await openStream(base2, await ticketFor(t, demoted.token));
      open.push(s1, s2);
      await until(() => second.container.streams.size === 2);
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(u.token) });
      await t.app.inject({
        method: 'PUT',
        url: `/api/auth/users/${demoted.id}/role`,
        headers: bearer(admin.token),
        payload: { role: 'user' },
      });
      // Well before the 20-second heartbeat would have checked them.
      await Promise.all([s1.ended, s2.ended]);
    });
  });
});
