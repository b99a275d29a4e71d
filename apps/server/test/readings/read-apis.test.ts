import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyResponseSchema } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { ago, postAsCollar, readingRows } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
let stranger: SeededUser;
let collar: Awaited<ReturnType<typeof ownedCollar>>;
let sent: object[];
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
  stranger = await seedUser(t);
  collar = await ownedCollar(t, admin, owner);
  // 30 readings, one a minute, the newest 1 minute ago.
  sent = Array.from({ length: 30 }, (_, i) => ({
    temperature: 20 + i / 10,
    humidity: 40 + i,
    heart_rate: i % 2 ? 100 : undefined,
    timestamp: ago(t, (30 - i) * 60_000),
  }));
  expect((await postAsCollar(t, collar.device_id, collar.device_key, sent)).statusCode).toBe(201);
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });

describe('GET /api/devices/{id}/vitals', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: `/api/devices/${collar.id}/vitals` }), 401);
  });

  it('pages the readings newest first with the total', async () => {
    const res = await get(owner.token, `/api/devices/${collar.id}/vitals?limit=5&offset=2`);
    expect(res.statusCode).toBe(200);
    const { vitals, total } = res.json();
    expect(total).toBe(30);
    expect(vitals.map((v: { humidity: number }) => v.humidity)).toEqual([67, 66, 65, 64, 63]);
  });

  it('answers an admin, and 404 to another user (and for an unknown id)', async () => {
    expect((await get(admin.token, `/api/devices/${collar.id}/vitals`)).statusCode).toBe(200);
    expectError(await get(stranger.token, `/api/devices/${collar.id}/vitals`), 404);
    expectError(
      await get(owner.token, `/api/devices/00000000-0000-4000-8000-000000000000/vitals`),
      404,
    );
  });

  it('counts a replayed reading once in the total', async () => {
    // The second reading of the 30 sent again (a collar that did not hear its answer).
    expect((await postAsCollar(t, collar.device_id, collar.device_key, sent[1]!)).statusCode).toBe(
      201,
    );
    expect((await get(owner.token, `/api/devices/${collar.id}/vitals`)).json().total).toBe(30);
  });

  it('refuses an offset past 10,000, naming the way to older readings', async () => {
    expect(
      (await get(owner.token, `/api/devices/${collar.id}/vitals?offset=10000`)).statusCode,
    ).toBe(200);
    expectError(
      await get(owner.token, `/api/devices/${collar.id}/vitals?offset=10001`),
      400,
      /offset must be at most 10,000: older readings are read by time/,
    );
  });

  it('refuses a limit over 1,000 or a negative offset', async () => {
    expectError(
      await get(owner.token, `/api/devices/${collar.id}/vitals?limit=1001`),
      400,
      /limit/,
    );
    expectError(
      await get(owner.token, `/api/devices/${collar.id}/vitals?offset=-1`),
      400,
      /offset/,
    );
  });
});

describe('GET /api/devices/{id}/vitals/latest', () => {
  it('answers the reading with the greatest timestamp', async () => {
    const res = await get(owner.token, `/api/devices/${collar.id}/vitals/latest`);
    expect(res.json().vitals).toMatchObject({ humidity: 69, device_id: collar.device_id });
  });

  it('answers null for a collar with no readings', async () => {
    const fresh = await ownedCollar(t, admin, owner);
    expect((await get(owner.token, `/api/devices/${fresh.id}/vitals/latest`)).json()).toEqual({
      vitals: null,
    });
  });
});

describe('GET /api/devices/{id}/readings', () => {
  it('answers the latest as a map keyed by reading id, each naming its deviceId', async () => {
    const res = await get(owner.token, `/api/devices/${collar.id}/readings?latest=1`);
    const map = res.json().readings as Record<string, { id: string; deviceId: string }>;
    const entries = Object.entries(map);
    expect(entries).toHaveLength(1);
    expect(entries[0]![0]).toBe(entries[0]![1].id);
    expect(entries[0]![1].deviceId).toBe(collar.device_id);
  });

  it('answers the readings between from and to', async () => {
    const from = encodeURIComponent(ago(t, 10.5 * 60_000));
    const to = encodeURIComponent(ago(t, 5.5 * 60_000));
    const res = await get(owner.token, `/api/devices/${collar.id}/readings?from=${from}&to=${to}`);
    expect(
      Object.values(res.json().readings).map((r) => (r as { humidity: number }).humidity),
    ).toEqual([60, 61, 62, 63, 64]);
  });

  it('answers the newest 1,000 when there are more, oldest first', async () => {
    const c = await ownedCollar(t, admin, owner);
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      temperature: 20,
      humidity: 40,
      timestamp: ago(t, (1100 - i) * 1000),
    }));
    await postAsCollar(t, c.device_id, c.device_key, batch);
    await postAsCollar(t, c.device_id, c.device_key, { temperature: 30, humidity: 40 });
    const res = await get(owner.token, `/api/devices/${c.id}/readings`);
    const list = Object.values(res.json().readings) as { temperature: number; timestamp: string }[];
    expect(list).toHaveLength(1000);
    expect(list.at(-1)!.temperature).toBe(30);
    const times = list.map((r) => Date.parse(r.timestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('refuses latest with a range, and a from that is not a date', async () => {
    expectError(
      await get(
        owner.token,
        `/api/devices/${collar.id}/readings?latest=1&from=${encodeURIComponent(ago(t, 1))}`,
      ),
      400,
    );
    expectError(
      await get(owner.token, `/api/devices/${collar.id}/readings?from=monday`),
      400,
      /from/,
    );
  });

  it('answers 404 to another user', async () => {
    expectError(await get(stranger.token, `/api/devices/${collar.id}/readings?latest=1`), 404);
  });
});

describe('GET /api/devices/{id}/history', () => {
  it('buckets an hour into min, avg and max per series, with the owner’s thresholds', async () => {
    const res = await get(owner.token, `/api/devices/${collar.id}/history?range=1h`);
    expect(res.statusCode).toBe(200);
    const h = res.json();
    expect(h).toMatchObject({
      range: '1h',
      bucket_seconds: 60,
      thresholds: { warning: 85, critical: 105 },
    });
    // One reading a minute: 30 buckets of one reading each, in time order.
    expect(h.buckets).toHaveLength(30);
    expect(h.buckets[0]).toMatchObject({
      count: 1,
      temperature: { min: 20, avg: 20, max: 20 },
      humidity: { min: 40, avg: 40, max: 40 },
      heart_rate: null,
    });
    expect(h.buckets[1].heart_rate).toEqual({ min: 100, avg: 100, max: 100 });
    const times = h.buckets.map((b: { t: string }) => Date.parse(b.t));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((ms: number) => ms % 60_000 === 0)).toBe(true);
    // Sent as built, not parsed against its schema first: it is the schema's exact shape.
    expect(historyResponseSchema.parse(h)).toEqual(h);
  });

  it('keeps a week to an hour a bucket (168), summarising each from the hour rollups', async () => {
    const c = await ownedCollar(t, admin, owner);
    // Nearly 7 days of a reading every 5 minutes stands in for the density here; the bucket width
    // depends only on the range.
    const batches = [];
    for (let i = 0; i < 2000; i++)
      batches.push({
        temperature: 20 + (i % 12),
        humidity: 50,
        timestamp: ago(t, (2000 - i) * 300_000),
      });
    for (let i = 0; i < batches.length; i += 1000)
      await postAsCollar(t, c.device_id, c.device_key, batches.slice(i, i + 1000));
    const h = (await get(owner.token, `/api/devices/${c.id}/history?range=7d`)).json();
    expect(h.bucket_seconds).toBe(3600);
    expect(h.buckets.length).toBeLessThanOrEqual(169);
    expect(h.buckets.length).toBeGreaterThan(160);
    const total = h.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0);
    expect(total).toBe(2000);
    const b = h.buckets.find((x: { count: number }) => x.count === 12);
    expect(b.temperature.max - b.temperature.min).toBeGreaterThan(0);
    expect(
      (await get(owner.token, `/api/devices/${c.id}/history?range=24h`)).json().bucket_seconds,
    ).toBe(180);
  });

  it('refuses an unknown range and answers 404 to another user', async () => {
    expectError(await get(owner.token, `/api/devices/${collar.id}/history?range=2d`), 400, /range/);
    expectError(await get(stranger.token, `/api/devices/${collar.id}/history`), 404);
  });
});

describe('readings retention', () => {
  it('prunes raw readings older than READINGS_RETENTION_DAYS, in batches, keeping the rest', async () => {
    const c = await ownedCollar(t, admin, owner);
    const day = 86_400_000;
    const now = t.clock.now().getTime();
    // Stored directly: the API refuses readings older than READINGS_MAX_AGE_DAYS (7).
    const row = (recorded_at: number, temperature: number) => ({
      device_uuid: c.id,
      recorded_at,
      received_at: recorded_at,
      temperature,
      humidity: 40,
      heart_rate: null,
      activity_level: null,
      battery: null,
      status: 'SAFE',
      reported_status: null,
      lat: null,
      lon: null,
    });
    const rows = Array.from({ length: 1500 }, (_, i) => row(now - 31 * day - i * 1000, 20));
    rows.push(row(now - 29 * day, 21));
    await t.app.container.db
      .transaction()
      .execute((trx) => t.app.container.repos.readings.insertNew(rows, trx));
    const before = (await readingRows(t)).length;
    const deleted = (await t.app.container.housekeeping.prune()).readings;
    expect(deleted).toBeGreaterThanOrEqual(1500);
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([21]);
    expect((await readingRows(t)).length).toBe(before - deleted);
  });
});

describe('releasing a collar', () => {
  it('deletes its readings, so the next owner starts with none', async () => {
    const c = await ownedCollar(t, admin, owner);
    await postAsCollar(t, c.device_id, c.device_key, { temperature: 20, humidity: 40 });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
    });
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });
});
