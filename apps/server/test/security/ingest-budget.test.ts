import type { LightMyRequestResponse } from 'fastify';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  createTestApp,
  json,
  seedUser,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar, passToNewOwner } from '../helpers/devices.js';
import { postAsCollar, readingRows } from '../helpers/readings.js';
import { INGEST_BUDGET } from '../../src/services/ingest-budget.js';

/**
 * RES-7 and DEV-7: ingest budgets in readings and bytes, per collar and per owner account, on
 * every path, and a storage quota per account. Counts only, never times: a flood is what a
 * loop of uploads does, whatever the machine's speed.
 */
let t: TestApp;
afterEach(() => t?.close());

const MINUTE = 60_000;

async function app(env: Record<string, string> = {}) {
  t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1', ...env } });
  const admin = await seedUser(t, { role: 'admin' });
  const owner = await seedUser(t);
  return { admin, owner };
}

/** A full reading, as a collar sends it (about 150 bytes of JSON). */
const reading = (at: number) => ({
  temperature: 24.5,
  humidity: 45,
  heart_rate: 90,
  activity_level: 3,
  battery: 80,
  location: { lat: 51.5072, lon: -0.1276 },
  timestamp: new Date(at).toISOString(),
});

/** `n` readings a second apart, the newest `endAgoMs` before the test clock's now. */
const batch = (n: number, endAgoMs: number) => {
  const end = t.clock.now().getTime() - endAgoMs;
  return Array.from({ length: n }, (_, i) => reading(end - (n - 1 - i) * 1000));
};

const postAsOwner = (owner: SeededUser, deviceId: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/devices/${deviceId}/vitals`,
    headers: { ...bearer(owner.token), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

/**
 * Runs `f` with the server's clock standing still: a flood's lists fall within one budget
 * minute however slow the machine (a loaded one took over a minute to store 60,000 readings).
 */
async function inOneMinute<T>(f: () => Promise<T>): Promise<T> {
  const at = t.clock.now();
  const still = vi.spyOn(t.clock, 'now').mockImplementation(() => new Date(at));
  try {
    return await f();
  } finally {
    still.mockRestore();
  }
}

/** Posts 1,000-reading lists until the first refusal (at most `max`); answers the statuses. */
function flood(
  post: (payload: unknown) => Promise<{ statusCode: number }>,
  max: number,
  offset = 0,
) {
  return inOneMinute(async () => {
    const statuses: number[] = [];
    for (let i = 0; i < max; i++) {
      // Each list a different stretch of the last days, so every reading is new.
      const res = await post(batch(1000, (offset + i) * 1_000_000 + 1000));
      statuses.push(res.statusCode);
      if (res.statusCode !== 201) break;
    }
    return statuses;
  });
}

const overBudgetLines = () =>
  t
    .logs()
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.event === 'ingest.over_budget');

describe('RES-7 and DEV-7: a collar key’s flood is refused within its budget', () => {
  it.each([
    [1, 12],
    [0.5, 6],
  ])(
    'RATE_LIMIT_MULTIPLIER %s: %s lists of 1,000 are stored, then 429 with Retry-After',
    async (multiplier, lists) => {
      const { admin, owner } = await app({ RATE_LIMIT_MULTIPLIER: String(multiplier) });
      expect(INGEST_BUDGET.collar.minute.readings * multiplier).toBe(lists * 1000);
      const c = await ownedCollar(t, admin, owner);
      const quiet = await ownedCollar(t, admin, await seedUser(t));
      const statuses = await flood((p) => postAsCollar(t, c.device_id, c.device_key, p), 20);
      expect(statuses).toEqual([...Array<number>(lists).fill(201), 429]);
      expect(await readingRows(t, c.id)).toHaveLength(lists * 1000);
      // Refused again and again, each whole, with a clear error and a time to come back.
      for (let i = 0; i < 5; i++) {
        const res = await postAsCollar(t, c.device_id, c.device_key, batch(1000, 1000));
        expectError(res, 429, /Too many readings from this collar/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(await readingRows(t, c.id)).toHaveLength(lists * 1000);
      // Logged once for the minute, not once a request.
      expect(overBudgetLines().filter((l) => l.device === c.id)).toHaveLength(1);
      // The owner is told once, beside the refusals (recorded after them, so waited for).
      const told = async () =>
        json<{ notifications: { alert_type: string; device: string; message: string }[] }>(
          await t.app.inject({ url: '/api/notifications', headers: bearer(owner.token) }),
        ).notifications.filter((n) => n.alert_type === 'over_budget' && n.device === c.id);
      await expect.poll(told, { timeout: 5_000, interval: 25 }).toHaveLength(1);
      expect((await told())[0]!.message).toMatch(/far more readings than a collar needs/);
      // Another collar is served meanwhile.
      expect(
        (await postAsCollar(t, quiet.device_id, quiet.device_key, batch(1, 0))).statusCode,
      ).toBe(201);
      // A new minute, a new budget.
      t.clock.advance(MINUTE);
      expect(
        (await postAsCollar(t, c.device_id, c.device_key, batch(1000, 500_000))).statusCode,
      ).toBe(201);
    },
  );

  it('counts bytes too: padded uploads are refused once a minute’s bytes are spent', async () => {
    const { admin, owner } = await app({ RATE_LIMIT_MULTIPLIER: '0.1' });
    const c = await ownedCollar(t, admin, owner);
    // One reading in 500 kB of whitespace: 0.8 MiB a minute is two of them.
    const padded = (i: number) =>
      JSON.stringify(reading(t.clock.now().getTime() - i * 1000)).padEnd(500_000, ' ');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.device_id}/vitals`,
        headers: { authorization: `Device ${c.device_key}`, 'content-type': 'application/json' },
        payload: padded(i + 1),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect(await readingRows(t, c.id)).toHaveLength(2);
  });
});

describe('RES-7: an owner token’s flood is refused within the budget', () => {
  it('refuses an owner posting 1,000-reading lists for one collar after the collar’s budget', async () => {
    const { admin, owner } = await app();
    const c = await ownedCollar(t, admin, owner);
    const statuses = await flood((p) => postAsOwner(owner, c.device_id, p), 20);
    expect(statuses).toEqual([...Array<number>(12).fill(201), 429]);
    expect(await readingRows(t, c.id)).toHaveLength(12_000);
    // The collar's own key shares that budget: the same collar, the same count.
    expectError(
      await postAsCollar(t, c.device_id, c.device_key, batch(1, 0)),
      429,
      /Too many readings from this collar/,
    );
  });

  it('refuses an owner spreading a flood over several collars once the account’s budget is spent', async () => {
    const { admin, owner } = await app();
    // 12,000 readings a minute per collar, 60,000 per account: six collars could take 72,000.
    const collars = [];
    for (let i = 0; i < 6; i++) collars.push(await ownedCollar(t, admin, owner, `Dog ${i}`));
    const { stored, refusal } = await spreadFlood(owner, collars);
    // What refused it, said first: a failure here names the answer it got.
    expect(refusal?.statusCode, refusal?.body).toBe(429);
    expectError(refusal!, 429, /Too many readings for this account/);
    expect(stored).toBe(INGEST_BUDGET.account.minute.readings);
    let kept = 0;
    for (const c of collars) kept += (await readingRows(t, c.id)).length;
    expect(kept).toBe(stored);
    // From now on each collar of the account is refused before its body is read: a body that
    // would answer 400 once parsed answers 429, by the owner's token and by the collar's key.
    const unread = (res: LightMyRequestResponse) =>
      expectError(res, 429, /Too many readings for this account/);
    for (const c of collars) {
      unread(
        await t.app.inject({
          method: 'POST',
          url: `/api/devices/${c.device_id}/vitals`,
          headers: { ...bearer(owner.token), 'content-type': 'application/json' },
          payload: '[{"temperature": ',
        }),
      );
      unread(await postAsCollar(t, c.device_id, c.device_key, [{ temperature: 'hot' }]));
    }
    // A collar given back and taken by someone else is charged to its new owner at once.
    const given = collars[0]!;
    await passToNewOwner(t, owner, given);
    expect((await postAsCollar(t, given.device_id, given.device_key, batch(1, 0))).statusCode).toBe(
      201,
    );
  });
});

/**
 * Lists of 1,000 readings posted with `poster`'s token to each collar in turn, for up to 12
 * rounds, until the first refusal: what was stored, and that refusal.
 */
function spreadFlood(poster: SeededUser, collars: { device_id: string }[]) {
  return inOneMinute(async () => {
    let stored = 0;
    for (let round = 0; round < 12; round++) {
      for (const c of collars) {
        const res = await postAsOwner(poster, c.device_id, batch(1000, round * 1_000_000 + 1000));
        if (res.statusCode !== 201)
          return { stored, refusal: res as LightMyRequestResponse | undefined };
        stored += 1000;
      }
    }
    return { stored, refusal: undefined as LightMyRequestResponse | undefined };
  });
}

describe('RES-7: an admin token’s flood is refused within the budget', () => {
  it('refuses an admin posting 1,000-reading lists for an owner’s collar after the collar’s budget', async () => {
    const { admin, owner } = await app();
    const c = await ownedCollar(t, admin, owner);
    const statuses = await flood((p) => postAsOwner(admin, c.device_id, p), 20);
    expect(statuses).toEqual([...Array<number>(12).fill(201), 429]);
    expect(await readingRows(t, c.id)).toHaveLength(12_000);
    const refused = await postAsOwner(admin, c.device_id, batch(1000, 1000));
    expectError(refused, 429, /Too many readings from this collar/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await readingRows(t, c.id)).toHaveLength(12_000);
    // Charged to the collar, which its key and its owner share.
    expectError(
      await postAsCollar(t, c.device_id, c.device_key, batch(1, 0)),
      429,
      /Too many readings from this collar/,
    );
    expectError(
      await postAsOwner(owner, c.device_id, batch(1, 0)),
      429,
      /Too many readings from this collar/,
    );
  });

  it('refuses an admin spreading a flood over one owner’s collars once that account’s budget is spent', async () => {
    const { admin, owner } = await app();
    const collars = [];
    for (let i = 0; i < 6; i++) collars.push(await ownedCollar(t, admin, owner, `Dog ${i}`));
    const { stored, refusal } = await spreadFlood(admin, collars);
    expect(refusal?.statusCode, refusal?.body).toBe(429);
    expectError(refusal!, 429, /Too many readings for this account/);
    expect(stored).toBe(INGEST_BUDGET.account.minute.readings);
  });
});

describe('RES-7: a collar reporting once a minute is never limited', () => {
  it('takes a day of once-a-minute readings with a 7-day backlog of 10,080 in 11 lists', async () => {
    const { admin, owner } = await app();
    const c = await ownedCollar(t, admin, owner);
    const refused: number[] = [];
    const post = async (payload: unknown) => {
      const res = await postAsCollar(t, c.device_id, c.device_key, payload);
      if (res.statusCode !== 201) refused.push(res.statusCode);
    };
    for (let minute = 0; minute < 24 * 60; minute++) {
      if (minute === 600) {
        // Back in range after a week away: the week's readings, once a minute, in 11 lists.
        const now = t.clock.now().getTime();
        const week = Array.from({ length: 7 * 1440 }, (_, i) =>
          reading(now - 7 * 86_400_000 + 30_000 + i * 60_000),
        );
        for (let i = 0; i < week.length; i += 1000) await post(week.slice(i, i + 1000));
      }
      await post(reading(t.clock.now().getTime()));
      t.clock.advance(MINUTE);
    }
    expect(refused).toEqual([]);
    expect(await readingRows(t, c.id)).toHaveLength(24 * 60 + 7 * 1440);
    expect(overBudgetLines()).toEqual([]);
    // 1,451 uploads one after another: 7–9 s on a quiet machine, over a minute on PostgreSQL
    // under CI's load on a slow day. Counts, not times, are what it proves.
  }, 180_000);

  it('takes the 7-day backlogs of five collars of one account in the same minute', async () => {
    const { admin, owner } = await app();
    const now = t.clock.now().getTime();
    const week = Array.from({ length: 7 * 1440 }, (_, i) =>
      reading(now - 7 * 86_400_000 + 30_000 + i * 60_000),
    );
    const refused: string[] = [];
    const collars = [];
    for (let i = 0; i < 5; i++) collars.push(await ownedCollar(t, admin, owner, `Dog ${i}`));
    // A family back from a week away: every collar uploads its week at once, in 11 lists.
    await Promise.all(
      collars.map(async (c) => {
        for (let i = 0; i < week.length; i += 1000) {
          const res = await postAsCollar(t, c.device_id, c.device_key, week.slice(i, i + 1000));
          if (res.statusCode !== 201) refused.push(`${res.statusCode} ${res.body}`);
        }
      }),
    );
    expect(refused).toEqual([]);
    for (const c of collars) expect(await readingRows(t, c.id)).toHaveLength(7 * 1440);
    expect(overBudgetLines()).toEqual([]);
  }, 120_000);
});

describe('RES-7: a storage quota per account', () => {
  it('refuses new readings over the quota with a clear error, counts a replay once, and tells the owner once', async () => {
    const { admin, owner } = await app({ READINGS_QUOTA_PER_ACCOUNT: '50' });
    const c = await ownedCollar(t, admin, owner);
    const first = batch(40, 60_000);
    expect((await postAsCollar(t, c.device_id, c.device_key, first)).statusCode).toBe(201);
    // A replay of what is stored is answered as stored, and takes no room.
    expect((await postAsCollar(t, c.device_id, c.device_key, first)).statusCode).toBe(201);
    const counter = async () =>
      Number(
        (
          await t.app.container.db
            .selectFrom('devices')
            .select('readings_stored')
            .where('id', '=', c.id)
            .executeTakeFirstOrThrow()
        ).readings_stored,
      );
    expect(await counter()).toBe(40);
    expect((await postAsOwner(owner, c.device_id, batch(10, 0))).statusCode).toBe(201);
    expect(await counter()).toBe(50);

    for (const post of [
      () => postAsCollar(t, c.device_id, c.device_key, batch(1, -1000)),
      () => postAsOwner(owner, c.device_id, batch(1, -2000)),
    ]) {
      const res = await post();
      expectError(res, 429, /keeps 50 readings at most and is full/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await readingRows(t, c.id)).toHaveLength(50);

    // The owner hears of it once: a notification, however often the collar is refused.
    const notices = async () =>
      json<{ notifications: { alert_type: string; message: string }[] }>(
        await t.app.inject({ url: '/api/notifications', headers: bearer(owner.token) }),
      ).notifications.filter((n) => n.alert_type === 'over_budget');
    // Recorded beside the refusal, not in its way: waited for, bounded.
    let seen = await notices();
    for (let i = 0; i < 200 && seen.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      seen = await notices();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]!.message).toMatch(/storage quota/);
    // Minutes later (a new log minute, so the refusal is told again): still the one notice.
    t.clock.advance(5 * MINUTE);
    expectError(await postAsCollar(t, c.device_id, c.device_key, batch(1, -3000)), 429);
    await t.app.container.ingest.drain();
    await new Promise((r) => setTimeout(r, 200));
    expect(await notices()).toHaveLength(1);
    expect(t.mail).toHaveLength(0);
  });

  it('makes room again as retention prunes old readings', async () => {
    const { admin, owner } = await app({
      READINGS_QUOTA_PER_ACCOUNT: '100',
      READINGS_RETENTION_DAYS: '1',
    });
    const c = await ownedCollar(t, admin, owner);
    // 100 readings of two days ago: the quota is full.
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, batch(100, 2 * 86_400_000))).statusCode,
    ).toBe(201);
    expectError(await postAsCollar(t, c.device_id, c.device_key, batch(1, 0)), 429);
    expect((await t.app.container.housekeeping.prune()).readings).toBe(100);
    // The account's count is read again within a minute.
    t.clock.advance(MINUTE);
    expect((await postAsCollar(t, c.device_id, c.device_key, batch(1, 0))).statusCode).toBe(201);
  });
});

describe('RES-7: MQTT uploads share the collar’s budget', () => {
  it('closes the connection of a collar flooding over MQTT once its budget is spent', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '0.5', MQTT_PORT: '0' } });
    const c = await ownedCollar(t, await seedUser(t, { role: 'admin' }), await seedUser(t));
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.container.mqtt.port}`, {
      username: c.device_id,
      password: c.device_key,
      clientId: c.device_id,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    try {
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      let acked = 0;
      for (let i = 0; i < 20 && client.connected; i++) {
        const sent = client
          .publishAsync(
            `pawguard/devices/${c.device_id}/vitals`,
            JSON.stringify(batch(1000, i * 1_000_000 + 1000)),
            {
              qos: 1,
            },
          )
          .then(
            () => true,
            () => false,
          );
        // A refused message is never acknowledged: the connection closes instead.
        if (await Promise.race([sent, closed.then(() => false)])) acked++;
        else break;
      }
      expect(acked).toBe(6);
      await closed;
      expect(await readingRows(t, c.id)).toHaveLength(6000);
    } finally {
      client.end(true);
    }
  });
});
