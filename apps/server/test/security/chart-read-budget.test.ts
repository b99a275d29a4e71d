import { afterEach, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, seedUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { CHART_READS } from '../../src/services/read-budget.js';
import type { Sleep } from '../../src/services/refusal-delay.js';

/**
 * RES-8 (decision 0046): an account's chart reads (history, back-test, activity, insights)
 * share one budget (a burst, then a rate); past it each is refused with 429 and Retry-After, and a
 * repeated refusal is held on a timer and closes its connection, so one account looping on
 * them cannot keep the server busy. Counts only; the timer is the test's own.
 */
let t: TestApp;
let held: (() => void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const release of held) release();
  await t?.close();
});
const heldSleep: Sleep = () => new Promise<void>((resolve) => held.push(resolve));

describe('RES-8: chart reads per account', () => {
  it('refuses an account past its chart reads, holds its repeats, and serves everyone else', async () => {
    held = [];
    // 0.1 of the budget: 20 chart reads at once, then 2 a second.
    t = await createTestApp({
      env: { RATE_LIMIT_MULTIPLIER: '0.1' },
      buildOptions: { refusalDelay: { sleep: heldSleep } },
    });
    const limit = Math.ceil(CHART_READS.burst * 0.1);
    const admin = await seedUser(t, { role: 'admin' });
    const owner = await seedUser(t);
    const other = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const theirs = await ownedCollar(t, admin, other);
    // The clock stands still (the bucket fills again with time) at a minute's start, and moves
    // only when the test moves it.
    let now = Math.ceil(t.clock.now().getTime() / 60_000) * 60_000 + 1000;
    vi.spyOn(t.clock, 'now').mockImplementation(() => new Date(now));
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, { temperature: 25, humidity: 40 }))
        .statusCode,
    ).toBe(201);
    const reads = [
      `/api/devices/${c.id}/history?range=7d`,
      `/api/devices/${c.id}/risk/backtest?days=30`,
      `/api/dogs/${c.pet.id}/activity?days=7`,
      `/api/dogs/${c.pet.id}/insights`,
    ];
    const get = (url: string, token = owner.token) => t.app.inject({ url, headers: bearer(token) });
    // Refused by validation before the budget: a bad range costs none of it.
    for (let i = 0; i < limit + 5; i++)
      expectError(await get(`/api/devices/${c.id}/history?range=2y`), 400);
    for (let i = 0; i < limit; i++) {
      const res = await get(reads[i % reads.length]!);
      expect(res.statusCode, `${reads[i % reads.length]} ${res.body}`).toBe(200);
    }
    // Every kind of chart read is refused now, the first at once and without closing.
    const first = await get(reads[0]!);
    expectError(first, 429, /Too many chart requests for this account/);
    expect(Number(first.headers['retry-after'])).toBeGreaterThan(0);
    expect(first.headers.connection).not.toBe('close');
    expect(held).toHaveLength(0);
    // A repeat waits on the timer, then is answered 429 and closes its connection.
    const repeat = get(reads[3]!);
    for (let i = 0; i < 100 && held.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(held).toHaveLength(1);
    held.shift()!();
    const repeated = await repeat;
    expectError(repeated, 429, /Too many chart requests/);
    expect(repeated.headers.connection).toBe('close');
    // An admin reading this owner's collar is charged to the admin's own budget.
    expect((await get(reads[0]!, admin.token)).statusCode).toBe(200);
    // The same account's other calls, its collar's uploads and other accounts go on.
    expect((await get('/api/devices')).statusCode).toBe(200);
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, { temperature: 26, humidity: 40 }))
        .statusCode,
    ).toBe(201);
    expect((await get(`/api/devices/${theirs.id}/history?range=24h`, other.token)).statusCode).toBe(
      200,
    );
    // A second later, the account reads again at its rate: two, then refused.
    now += 1000;
    expect((await get(reads[1]!)).statusCode).toBe(200);
    expect((await get(reads[2]!)).statusCode).toBe(200);
    expect((await get(reads[0]!)).statusCode).toBe(429);
    // Logged once, however many were refused.
    const lines = t
      .logs()
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.event === 'reads.over_budget');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ account: owner.id });
  });
});
