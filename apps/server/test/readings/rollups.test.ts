import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar, passToNewOwner } from '../helpers/devices.js';
import { usePostgres } from '../helpers/app.js';
import { withSecondInstance } from '../helpers/second-instance.js';
import { deviceAuth } from '../helpers/devices.js';
import { postAsCollar, readingRows } from '../helpers/readings.js';
import {
  HOUR_S,
  MINUTE_S,
  bucketStart,
  readingSummary,
  summarise,
  toRollupRow,
} from '../../src/services/rollup-summary.js';
import { backfillRollups } from '../../src/db/migrations/015-reading-rollups.js';
import * as renamed from '../../src/db/migrations/018-device-uuid.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
});
afterAll(() => t.close());

const DAY = 86_400_000;
const rollupRows = (deviceId: string) =>
  t.app.container.db
    .selectFrom('reading_rollups')
    .selectAll()
    .where('device_uuid', '=', deviceId)
    .orderBy('bucket_seconds')
    .orderBy('bucket_at')
    .execute();

/** Sums rounded (added up in another order, a float may differ in its last digits). */
const comparable = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      k.endsWith('_sum')
        ? Math.round(Number(v) * 1e6) / 1e6
        : v === null
          ? null
          : k === 'device_uuid'
            ? v
            : Number(v),
    ]),
  );

/** Every minute and hour rollup of the collar is what its raw readings, summed up in time order, give. */
async function expectRollupsMatchReadings(deviceId: string) {
  const raw = (await readingRows(t, deviceId)).map((r) => ({
    ...r,
    recorded_at: Number(r.recorded_at),
  }));
  const expected = [];
  for (const width of [MINUTE_S, HOUR_S]) {
    const buckets = new Map<number, typeof raw>();
    for (const r of raw) {
      const at = bucketStart(r.recorded_at, width);
      buckets.set(at, [...(buckets.get(at) ?? []), r]);
    }
    for (const [at, rs] of buckets)
      expected.push(
        comparable({ ...toRollupRow(deviceId, width, at, summarise(rs, readingSummary)) }),
      );
  }
  const stored = (await rollupRows(deviceId)).map((r) => comparable({ ...r }));
  expect(stored).toEqual(expected);
  return raw.length;
}

/** Readings `stepS` apart from `fromMs`, warm enough now and then to leave SAFE. */
function series(fromMs: number, count: number, stepS: number, phase = 0) {
  return Array.from({ length: count }, (_, i) => ({
    timestamp: new Date(fromMs + i * stepS * 1000).toISOString(),
    temperature: [24, 31, 36, 41, 30, 25][(i + phase) % 6]!,
    humidity: 40 + ((i + phase) % 30),
    heart_rate: i % 3 ? 90 + (i % 50) : undefined,
    activity_level: i % 4 ? (i * 7) % 100 : undefined,
  }));
}

describe('reading rollups (RES-8: history and the back-test never read raw readings in bulk)', () => {
  it('match the raw readings after batches, a replay and an out-of-order backlog', async () => {
    const c = await ownedCollar(t, admin, owner);
    const start = bucketStart(t.clock.now().getTime() - 3 * 3_600_000, HOUR_S) + 17_000;
    const live = series(start, 400, 7);
    for (let i = 0; i < live.length; i += 100) {
      const res = await postAsCollar(t, c.device_id, c.device_key, live.slice(i, i + 100));
      expect(res.statusCode, res.body).toBe(201);
    }
    // The same upload again: acknowledged, stored once, counted once.
    expect((await postAsCollar(t, c.device_id, c.device_key, live.slice(0, 100))).statusCode).toBe(
      201,
    );
    // A backlog landing between readings already summed up, minutes and hours alike, and
    // older readings before them all.
    const backlog = [...series(start + 3000, 130, 21, 3), ...series(start - 600_000, 40, 13, 1)];
    expect((await postAsCollar(t, c.device_id, c.device_key, backlog)).statusCode).toBe(201);
    // Replayed out of order, mixed with new readings.
    const later = series(start + 400 * 7000, 30, 5, 2);
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, [...later, ...backlog.slice(0, 20)]))
        .statusCode,
    ).toBe(201);
    const n = await expectRollupsMatchReadings(c.id);
    expect(n).toBe(400 + 130 + 40 + 30);
  });

  it('match each collar’s readings when collars upload together, in one commit', async () => {
    const collars = await Promise.all([1, 2, 3, 4].map(() => ownedCollar(t, admin, owner)));
    const start = t.clock.now().getTime() - 2 * 3_600_000;
    for (let round = 0; round < 3; round++)
      await Promise.all(
        collars.map((c, i) =>
          postAsCollar(t, c.device_id, c.device_key, series(start + round * 900_000, 50, 11, i)),
        ),
      );
    for (const c of collars) expect(await expectRollupsMatchReadings(c.id)).toBe(150);
  });

  it('are written for readings already stored by the migration that adds them', async () => {
    const c = await ownedCollar(t, admin, owner);
    const now = t.clock.now().getTime();
    // Stored directly, as readings from before the rollups were.
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      device_uuid: c.id,
      recorded_at: now - 20 * DAY + i * 45_000,
      received_at: now,
      temperature: 20 + (i % 23),
      humidity: 50,
      heart_rate: i % 5 ? 100 : null,
      activity_level: null,
      battery: null,
      status: ['SAFE', 'SAFE', 'WARNING', 'DANGER'][i % 4]!,
      reported_status: null,
      lat: null,
      lon: null,
      risk_band: i % 7 === 0 ? 'CRITICAL' : null,
    }));
    await t.app.container.db
      .transaction()
      .execute((trx) => t.app.container.repos.readings.insertNew(rows, trx));
    expect(await rollupRows(c.id)).toHaveLength(0);
    // The backfill as migration 015 wrote it, on the tables as they were then.
    await renamed.down(t.app.container.db);
    try {
      await backfillRollups(t.app.container.db);
    } finally {
      await renamed.up(t.app.container.db);
    }
    expect(await expectRollupsMatchReadings(c.id)).toBe(1200);
  });

  it('answer history and the back-test once raw readings are gone', async () => {
    const c = await ownedCollar(t, admin, owner);
    const now = t.clock.now().getTime();
    const readings = series(now - 5 * DAY, 1000, 400);
    for (let i = 0; i < readings.length; i += 500)
      expect(
        (await postAsCollar(t, c.device_id, c.device_key, readings.slice(i, i + 500))).statusCode,
      ).toBe(201);
    const urls = [
      'history?range=1h',
      'history?range=24h',
      'history?range=7d',
      'risk/backtest?days=7',
    ];
    const answer = async (url: string) => {
      const res = await t.app.inject({
        url: `/api/devices/${c.id}/${url}`,
        headers: bearer(owner.token),
      });
      expect(res.statusCode, res.body).toBe(200);
      // The back-test ends now, a moment later the second time.
      const { to, ...body } = res.json();
      return url.startsWith('history') ? { to, ...body } : body;
    };
    const before = await Promise.all(urls.map(answer));
    const week = before[2];
    expect(week.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(1000);
    expect(before[3]).toMatchObject({ readings: 1000 });
    expect(before[3].thresholds.alerts).toBeGreaterThan(0);
    // As retention leaves it: raw readings removed (and the collar's count of them), rollups kept.
    await t.app.container.db.deleteFrom('readings').where('device_uuid', '=', c.id).execute();
    await t.app.container.db
      .updateTable('devices')
      .set({ readings_stored: 0 })
      .where('id', '=', c.id)
      .execute();
    expect(await Promise.all(urls.map(answer))).toEqual(before);
  });

  it('answer anew after each new reading, though an answer is kept between readings', async () => {
    const c = await ownedCollar(t, admin, owner);
    const now = t.clock.now().getTime();
    const counts = async (app = t.app) => {
      const get = async (url: string) => {
        const res = await app.inject({
          url: `/api/devices/${c.id}/${url}`,
          headers: bearer(owner.token),
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json();
      };
      const [week, test] = await Promise.all([
        get('history?range=7d'),
        get('risk/backtest?days=7'),
      ]);
      return [
        week.buckets.reduce((n: number, b: { count: number }) => n + b.count, 0),
        test.readings,
      ];
    };
    expect(await counts()).toEqual([0, 0]);
    await postAsCollar(t, c.device_id, c.device_key, series(now - 3 * DAY, 4, 60));
    expect(await counts()).toEqual([4, 4]);
    expect(await counts()).toEqual([4, 4]);
    // A backlog reading inside a bucket already answered.
    await postAsCollar(t, c.device_id, c.device_key, series(now - 3 * DAY + 30_000, 1, 60));
    expect(await counts()).toEqual([5, 5]);
    if (usePostgres)
      // Another instance stores the next one: this one's kept answers are not believed.
      await withSecondInstance(t, async (second) => {
        const res = await second.inject({
          method: 'POST',
          url: `/api/devices/${c.device_id}/vitals`,
          headers: { ...deviceAuth(c.device_key), 'content-type': 'application/json' },
          payload: JSON.stringify(series(now - 60_000, 1, 60)),
        });
        expect(res.statusCode, res.body).toBe(201);
        expect(await counts(second)).toEqual([6, 6]);
      });
    else await postAsCollar(t, c.device_id, c.device_key, series(now - 60_000, 1, 60));
    expect(await counts()).toEqual([6, 6]);
  });

  it('answer the next owner of a released collar from its own readings, in the same millisecond', async () => {
    const c = await ownedCollar(t, admin, owner);
    // The clock stands still: the released collar's next reading leaves the same last_seen
    // and count as the first owner's did.
    const now = t.clock.now().getTime();
    const still = vi.spyOn(t.clock, 'now').mockImplementation(() => new Date(now));
    try {
      const buckets = async (token: string) => {
        const res = await t.app.inject({
          url: `/api/devices/${c.id}/history?range=24h`,
          headers: bearer(token),
        });
        expect(res.statusCode, res.body).toBe(200);
        return res
          .json()
          .buckets.filter((b: { count: number }) => b.count > 0)
          .map((b: { t: string }) => b.t);
      };
      await postAsCollar(t, c.device_id, c.device_key, series(now - 5 * 3600_000, 1, 60));
      const first = await buckets(owner.token);
      expect(first).toHaveLength(1);
      const { next } = await passToNewOwner(t, owner, c);
      await postAsCollar(t, c.device_id, c.device_key, series(now - 3600_000, 1, 60));
      const theirs = await buckets(next.token);
      expect(theirs).toHaveLength(1);
      expect(theirs).not.toEqual(first);
    } finally {
      still.mockRestore();
    }
  });

  it('go with the collar’s readings when its owner releases it', async () => {
    const c = await ownedCollar(t, admin, owner);
    await postAsCollar(
      t,
      c.device_id,
      c.device_key,
      series(t.clock.now().getTime() - 60_000, 3, 5),
    );
    // A minute and an hour at least.
    expect((await rollupRows(c.id)).length).toBeGreaterThanOrEqual(2);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await rollupRows(c.id)).toHaveLength(0);
  });

  it('start afresh for the next owner of a released collar, in the same minute', async () => {
    const c = await ownedCollar(t, admin, owner);
    const minute = bucketStart(t.clock.now().getTime() - 120_000, MINUTE_S);
    const at = (s: number) => series(minute + s * 1000, 1, 1);
    expect((await postAsCollar(t, c.device_id, c.device_key, at(5))).statusCode).toBe(201);
    await passToNewOwner(t, owner, c);
    expect((await postAsCollar(t, c.device_id, c.device_key, at(9))).statusCode).toBe(201);
    expect(await expectRollupsMatchReadings(c.id)).toBe(1);
  });

  it.runIf(usePostgres)(
    'match the readings when two instances take turns with one collar',
    async () => {
      const c = await ownedCollar(t, admin, owner);
      const start = bucketStart(t.clock.now().getTime() - 600_000, MINUTE_S);
      await withSecondInstance(t, async (second) => {
        for (let i = 0; i < 12; i++) {
          const app = i % 2 ? second : t.app;
          const res = await app.inject({
            method: 'POST',
            url: `/api/devices/${c.device_id}/vitals`,
            headers: { ...deviceAuth(c.device_key), 'content-type': 'application/json' },
            payload: JSON.stringify(series(start + i * 4000, 3, 1, i)),
          });
          expect(res.statusCode, res.body).toBe(201);
        }
      });
      expect(await expectRollupsMatchReadings(c.id)).toBe(36);
    },
  );

  it('are kept a year by the hour and 35 days by the minute, then pruned', async () => {
    const c = await ownedCollar(t, admin, owner);
    const now = t.clock.now().getTime();
    const summary = summarise(
      [
        {
          recorded_at: 0,
          temperature: 20,
          humidity: 40,
          heart_rate: null,
          activity_level: null,
          status: 'SAFE',
          risk_band: null,
        },
      ],
      readingSummary,
    );
    const row = (width: number, agoMs: number) =>
      toRollupRow(c.id, width, bucketStart(now - agoMs, width), summary);
    await t.app.container.repos.rollups.upsert(
      [
        row(MINUTE_S, 34 * DAY),
        row(MINUTE_S, 36 * DAY),
        row(HOUR_S, 36 * DAY),
        row(HOUR_S, 360 * DAY),
        row(HOUR_S, 367 * DAY),
      ],
      t.app.container.db,
    );
    const pruned = await t.app.container.housekeeping.prune();
    expect(pruned.rollups).toBeGreaterThanOrEqual(2);
    const kept = (await rollupRows(c.id)).map((r) => [
      Number(r.bucket_seconds),
      Math.round((now - Number(r.bucket_at)) / DAY),
    ]);
    expect(kept).toEqual([
      [MINUTE_S, 34],
      [HOUR_S, 360],
      [HOUR_S, 36],
    ]);
  });
});
