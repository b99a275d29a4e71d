import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar, readingRows } from '../helpers/readings.js';
import { REFUSAL_DELAY_MS, type Sleep } from '../../src/services/refusal-delay.js';

/**
 * RES-7: a collar's or an account's repeated 429s over HTTP are answered after a delay, on a
 * timer, so a flood's closed-loop clients cost the server about one refusal a second each. The
 * timer is the test's own (released by hand): counts and order, never times.
 */
let t: TestApp;
afterEach(async () => {
  for (const s of sleeps) s.release();
  await t?.close();
});

interface Held {
  ms: number;
  release: () => void;
}
let sleeps: Held[] = [];
const heldSleep: Sleep = (ms) =>
  new Promise((resolve) => {
    sleeps.push({ ms, release: () => resolve() });
  });

async function app(maxPending?: number, multiplier = '0.1') {
  sleeps = [];
  t = await createTestApp({
    env: { RATE_LIMIT_MULTIPLIER: multiplier },
    buildOptions: {
      refusalDelay: { sleep: heldSleep, ...(maxPending ? { maxPending } : {}) },
    },
  });
  const admin = await seedUser(t, { role: 'admin' });
  const owner = await seedUser(t);
  return { admin, owner };
}

const reading = (at: number) => ({
  temperature: 24.5,
  humidity: 45,
  heart_rate: 90,
  activity_level: 3,
  battery: 80,
  timestamp: new Date(at).toISOString(),
});
let offset = 0;
/** 1,000 new readings, a second apart, in a stretch of the last days no other list used. */
const list = () => {
  const end = t.clock.now().getTime() - ++offset * 1_000_000;
  return Array.from({ length: 1000 }, (_, i) => reading(end - (999 - i) * 1000));
};

/** Lets the server run until `n` refusals are held (or it has nothing left to do). */
async function untilHeld(n: number) {
  for (let i = 0; i < 200 && sleeps.length < n; i++) await new Promise((r) => setTimeout(r, 5));
  expect(sleeps).toHaveLength(n);
}

/** A request in flight, and whether it has been answered yet. */
function inFlight(p: Promise<LightMyRequestResponse>) {
  const state = { answered: false, res: p };
  void p.then(() => (state.answered = true));
  return state;
}

/** Posts lists until the collar's first 429, which it answers. */
async function spend(post: (payload: unknown) => Promise<LightMyRequestResponse>) {
  for (let i = 0; i < 20; i++) {
    const res = await post(list());
    if (res.statusCode !== 201) return res;
  }
  throw new Error('never refused');
}

const postAsOwner = (owner: SeededUser, deviceId: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/devices/${deviceId}/vitals`,
    headers: { ...bearer(owner.token), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('RES-7: repeated ingest refusals are answered after a delay', () => {
  it('answers a collar’s first 429 at once and the next ones after the delay, same shape, connection closed', async () => {
    const { admin, owner } = await app();
    const c = await ownedCollar(t, admin, owner);
    const post = (p: unknown) => postAsCollar(t, c.device_id, c.device_key, p);
    const first = await spend(post);
    expectError(first, 429, /Too many readings from this collar/);
    expect(Number(first.headers['retry-after'])).toBeGreaterThan(0);
    expect(first.headers.connection).not.toBe('close');
    expect(sleeps).toHaveLength(0); // answered at once

    const second = inFlight(post(list()));
    await untilHeld(1);
    expect(sleeps[0]!.ms).toBe(REFUSAL_DELAY_MS);
    expect(second.answered).toBe(false); // not before the delay
    sleeps[0]!.release();
    const res = await second.res;
    expectError(res, 429, /Too many readings from this collar/);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers.connection).toBe('close');
    expect(await readingRows(t, c.id)).toHaveLength(2000);
  });

  it('serves other collars at once while a collar’s refusal is held', async () => {
    const { admin, owner } = await app();
    const c = await ownedCollar(t, admin, owner);
    const quiet = await ownedCollar(t, admin, await seedUser(t), 'Rex');
    const post = (p: unknown) => postAsCollar(t, c.device_id, c.device_key, p);
    await spend(post);
    const held = inFlight(post(list()));
    await untilHeld(1);
    const other = await postAsCollar(t, quiet.device_id, quiet.device_key, [
      reading(t.clock.now().getTime()),
    ]);
    expect(other.statusCode).toBe(201);
    // The other collar's first refusal, later, is its own first: at once.
    const otherFirst = await spend((p) => postAsCollar(t, quiet.device_id, quiet.device_key, p));
    expect(otherFirst.statusCode).toBe(429);
    expect(sleeps).toHaveLength(1);
    expect(held.answered).toBe(false);
    sleeps[0]!.release();
    expect((await held.res).statusCode).toBe(429);
  });

  it('holds at most the bound of refusals server-wide; past it, answers at once and closes', async () => {
    const { admin, owner } = await app(2);
    const c = await ownedCollar(t, admin, owner);
    const post = (p: unknown) => postAsCollar(t, c.device_id, c.device_key, p);
    await spend(post);
    const a = inFlight(post(list()));
    const b = inFlight(post(list()));
    await untilHeld(2);
    const past = await post(list());
    expectError(past, 429, /Too many readings from this collar/);
    expect(past.headers.connection).toBe('close');
    expect(sleeps).toHaveLength(2);
    expect(t.app.container.refusals.pending).toBe(2);
    expect([a.answered, b.answered]).toEqual([false, false]);
    for (const s of sleeps) s.release();
    expect([(await a.res).statusCode, (await b.res).statusCode]).toEqual([429, 429]);
    expect(t.app.container.refusals.pending).toBe(0);
  });

  it('answers at once again once Retry-After has passed: a collar that honours it sees no delay', async () => {
    const { admin, owner } = await app();
    const c = await ownedCollar(t, admin, owner);
    const post = (p: unknown) => postAsCollar(t, c.device_id, c.device_key, p);
    const first = await spend(post);
    t.clock.advance(Number(first.headers['retry-after']) * 1000);
    expect((await post(list())).statusCode).toBe(201);
    const again = await spend(post);
    expect(again.statusCode).toBe(429);
    expect(sleeps).toHaveLength(0);
  });

  it('delays an account’s repeated refusals too, after its body was read', async () => {
    const { admin, owner } = await app(undefined, '0.4');
    // 4,800 readings a minute per collar and 24,000 per account at this multiplier.
    const collars = [];
    for (let i = 0; i < 6; i++) {
      collars.push(await ownedCollar(t, admin, owner, `Dog ${i}`));
      // 4 Device ID look-ups a minute at this multiplier, and a claim is one.
      if (i % 3 === 2) t.clock.advance(61_000);
    }
    let first: LightMyRequestResponse | undefined;
    outer: for (let round = 0; round < 6; round++)
      for (const c of collars) {
        const res = await postAsOwner(owner, c.device_id, list());
        if (res.statusCode !== 201) {
          first = res;
          break outer;
        }
      }
    expectError(first!, 429, /Too many readings for this account/);
    expect(sleeps).toHaveLength(0);
    // Another of its collars, with room of its own: refused for the account again, held.
    const repeated = inFlight(postAsOwner(owner, collars[5]!.device_id, list()));
    await untilHeld(1);
    expect(repeated.answered).toBe(false);
    sleeps[0]!.release();
    const res = await repeated.res;
    expectError(res, 429, /Too many readings for this account/);
    expect(res.headers.connection).toBe('close');
  });
});
