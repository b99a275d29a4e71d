import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { deviceAuth, ownedCollar } from '../helpers/devices.js';
import { ago, postAsCollar, readingRows } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
});
afterAll(() => t.close());

const reading = { temperature: 22, humidity: 40 };

describe('DEV-2: the device key is read from the Authorization header only', () => {
  it('refuses a key in the query string or the path with 401', async () => {
    const c = await ownedCollar(t, admin, owner);
    for (const url of [
      `/api/devices/${c.device_id}/vitals?key=${c.device_key}`,
      `/api/devices/${c.device_id}/vitals?device_key=${c.device_key}`,
      `/api/devices/${c.device_id}/vitals?access_token=${c.device_key}`,
    ]) {
      expectError(await t.app.inject({ method: 'POST', url, payload: reading }), 401);
    }
    expectError(
      await t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.device_key}/vitals`,
        payload: reading,
      }),
      401,
    );
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });
});

describe('DEV-3: a collar writes only its own readings', () => {
  it('refuses every cross-device post in a matrix of collars and keys', async () => {
    const collars = await Promise.all([0, 1, 2].map(() => ownedCollar(t, admin, owner)));
    for (const path of collars) {
      for (const key of collars) {
        const res = await postAsCollar(t, path.device_id, key.device_key, reading);
        expect(res.statusCode, `${key.device_id} posting as ${path.device_id}`).toBe(
          path === key ? 201 : 403,
        );
      }
    }
    for (const c of collars) expect(await readingRows(t, c.id)).toHaveLength(1);
  });

  it('refuses a body device_id other than the key’s own with 403, and takes its own', async () => {
    const [a, b] = await Promise.all([ownedCollar(t, admin, owner), ownedCollar(t, admin, owner)]);
    expectError(
      await postAsCollar(t, a.device_id, a.device_key, { ...reading, device_id: b.device_id }),
      403,
    );
    expectError(
      await postAsCollar(t, a.device_id, a.device_key, [
        reading,
        { ...reading, device_id: b.device_id, timestamp: ago(t, 1) },
      ]),
      403,
      /readings\[1\]\.device_id/,
    );
    expect(await readingRows(t, a.id)).toHaveLength(0);
    expect(
      (
        await postAsCollar(t, a.device_id, a.device_key, {
          ...reading,
          device_id: a.device_id.toLowerCase(),
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe('DEV-4: a removed collar’s key is refused at once; a shared key is noticed', () => {
  it('refuses the key of a collar an admin removed, on the next request', async () => {
    const c = await ownedCollar(t, admin, owner);
    expect((await postAsCollar(t, c.device_id, c.device_key, reading)).statusCode).toBe(201);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${c.id}`,
      headers: bearer(admin.token),
    });
    expectError(
      await postAsCollar(t, c.device_id, c.device_key, { ...reading, timestamp: ago(t, 1) }),
      401,
    );
  });

  it('logs a key used from two addresses in turn', async () => {
    const c = await ownedCollar(t, admin, owner);
    for (const [i, remoteAddress] of ['10.0.0.1', '10.0.0.2', '10.0.0.1'].entries()) {
      await t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.device_id}/vitals`,
        remoteAddress,
        headers: deviceAuth(c.device_key),
        payload: { ...reading, timestamp: ago(t, 10_000 - i) },
      });
    }
    const shared = t
      .logs()
      .filter((l) => l.includes('device.credential_shared') && l.includes(c.device_id));
    expect(shared).toHaveLength(1);
    expect(shared[0]).not.toContain(c.device_key);
  });
});

describe('DEV-5: reading values and times are bounded (400, never 5xx)', () => {
  const table: [string, Record<string, unknown>, number][] = [
    ['temperature −40', { temperature: -40, humidity: 0 }, 201],
    ['temperature 60', { temperature: 60, humidity: 100 }, 201],
    ['temperature −40.1', { temperature: -40.1, humidity: 0 }, 400],
    ['temperature 60.1', { temperature: 60.1, humidity: 0 }, 400],
    ['heart rate 20', { ...reading, heart_rate: 20 }, 201],
    ['heart rate 300', { ...reading, heart_rate: 300 }, 201],
    ['heart rate 19', { ...reading, heart_rate: 19 }, 400],
    ['heart rate 301', { ...reading, heart_rate: 301 }, 400],
    ['battery 0', { ...reading, battery: 0 }, 201],
    ['battery −1', { ...reading, battery: -1 }, 400],
    ['activity 101', { ...reading, activity_level: 101 }, 400],
    ['latitude 90.1', { ...reading, location: { lat: 90.1, lon: 0 } }, 400],
    ['longitude −180.1', { ...reading, location: { lat: 0, lon: -180.1 } }, 400],
    ['a timestamp 8 days old', { ...reading, ts: -8 * 86_400_000 }, 400],
    ['a timestamp 6 days old', { ...reading, ts: -6 * 86_400_000 }, 201],
    ['a timestamp 6 minutes ahead', { ...reading, ts: 6 * 60_000 }, 400],
  ];
  for (const [what, body, status] of table) {
    it(`${what} → ${status}`, async () => {
      const c = await ownedCollar(t, admin, owner);
      const { ts, ...payload } = body as { ts?: number };
      const at = new Date(t.clock.now().getTime() + (ts ?? -1000)).toISOString();
      const res = await postAsCollar(t, c.device_id, c.device_key, { ...payload, timestamp: at });
      expect(res.statusCode, res.body).toBe(status);
      expect(await readingRows(t, c.id)).toHaveLength(status === 201 ? 1 : 0);
    });
  }
});

describe('DEV-5: READINGS_MAX_AGE_DAYS widens the window, to 35 days at most', () => {
  it('takes a reading 20 days old with the setting at 35, and refuses one 36 days old naming 35', async () => {
    const wide = await createTestApp({
      env: { READINGS_MAX_AGE_DAYS: '35', READINGS_RETENTION_DAYS: '35' },
    });
    try {
      const wideAdmin = await seedUser(wide, { role: 'admin' });
      const c = await ownedCollar(wide, wideAdmin, await seedUser(wide));
      const at = (days: number) => new Date(wide.clock.now().getTime() - days * 86_400_000);
      const old = await postAsCollar(wide, c.device_id, c.device_key, {
        ...reading,
        timestamp: at(20).toISOString(),
      });
      expect(old.statusCode, old.body).toBe(201);
      expectError(
        await postAsCollar(wide, c.device_id, c.device_key, [
          { ...reading, timestamp: at(1).toISOString() },
          { ...reading, timestamp: at(36).toISOString() },
        ]),
        400,
        /^readings\[1\]\.timestamp is more than 35 days old$/,
      );
      expect(await readingRows(wide, c.id)).toHaveLength(1);
    } finally {
      await wide.close();
    }
  });
});

describe('DEV-6: ingest is idempotent under replays in any order', () => {
  it('stores each (device, timestamp) once however often and in whatever order it is sent', async () => {
    const c = await ownedCollar(t, admin, owner);
    let base = t.clock.now().getTime() - 3_600_000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }),
        fc.infiniteStream(fc.integer()),
        async (repeats, order) => {
          const start = base;
          base += 1000;
          const sends = repeats.flatMap((n, i) => Array.from({ length: n }, () => start + i));
          const shuffled = sends
            .map((ts) => ({ ts, k: order.next().value as number }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.ts);
          const before = (await readingRows(t, c.id)).length;
          const results = await Promise.all(
            shuffled.map((ts) =>
              postAsCollar(t, c.device_id, c.device_key, { ...reading, timestamp: ts }),
            ),
          );
          expect(results.every((r) => r.statusCode === 201)).toBe(true);
          expect((await readingRows(t, c.id)).length - before).toBe(repeats.length);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('DEV-7: each collar has its own rate limit', () => {
  it('answers a noisy collar 429 with Retry-After while another collar goes on', async () => {
    // Limits scaled down so the budget is small: 600 × 0.1 = 60 posts a minute per collar.
    const small = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '0.1' } });
    try {
      const boss = await seedUser(small, { role: 'admin' });
      // Two owners: a Device ID claim spends a per-user budget that is small here too.
      const noisy = await ownedCollar(small, boss, await seedUser(small));
      const quiet = await ownedCollar(small, boss, await seedUser(small));
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) {
        const res = await postAsCollar(small, noisy.device_id, noisy.device_key, {
          ...reading,
          timestamp: ago(small, 100_000 - i),
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
          expectError(res, 429, /Too many readings from this collar/);
        }
      }
      expect(statuses.slice(0, 60).every((s) => s === 201)).toBe(true);
      expect(statuses[60]).toBe(429);
      expect(
        (await postAsCollar(small, quiet.device_id, quiet.device_key, reading)).statusCode,
      ).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('RES-1 and RES-2: bodies and pages are bounded', () => {
  it('answers 413 to an ingest body over 512 KiB', async () => {
    const c = await ownedCollar(t, admin, owner);
    const big = Array.from({ length: 1000 }, (_, i) => ({
      ...reading,
      status: 'x'.repeat(20),
      timestamp: i,
    }));
    const padded = JSON.stringify(big).padEnd(600 * 1024, ' ');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.device_id}/vitals`,
      headers: { ...deviceAuth(c.device_key), 'content-type': 'application/json' },
      payload: padded,
    });
    expectError(res, 413);
  });

  it('refuses a page over 1,000 readings and a range over 31 days', async () => {
    const c = await ownedCollar(t, admin, owner);
    expectError(
      await t.app.inject({
        url: `/api/devices/${c.id}/vitals?limit=100000`,
        headers: bearer(owner.token),
      }),
      400,
    );
    const from = encodeURIComponent(ago(t, 40 * 86_400_000));
    const to = encodeURIComponent(ago(t, 0));
    expectError(
      await t.app.inject({
        url: `/api/devices/${c.id}/readings?from=${from}&to=${to}`,
        headers: bearer(owner.token),
      }),
      400,
      'from and to must be at most 31 days apart',
    );
  });
});
