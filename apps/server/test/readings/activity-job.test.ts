import { HEAT_ADVICE } from '@pawguard/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;

let t: TestApp;
let owner: SeededUser;
let collar: Awaited<ReturnType<typeof ownedCollar>>;

beforeEach(async () => {
  t = await createTestApp();
  // 10:30 UTC of the test's day: the owner's zone is unknown, so days are UTC days.
  const now = t.clock.now().getTime();
  t.clock.advance(Math.floor(now / 86_400_000) * 86_400_000 + 10.5 * HOUR + 86_400_000 - now);
  const admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
  collar = await ownedCollar(t, admin, owner);
});
afterEach(async () => {
  await t?.close();
});

/** One reading a minute from `from` (ms), `n` of them. */
const minutes = (from: number, n: number, activity: number, temperature = 22) =>
  Array.from({ length: n }, (_, i) => ({
    temperature,
    humidity: 40,
    activity_level: activity,
    timestamp: new Date(from + i * MINUTE + 5_000).toISOString(),
  }));
const post = async (readings: unknown[]) =>
  expect((await postAsCollar(t, collar.device_id, collar.device_key, readings)).statusCode).toBe(
    201,
  );
const job = () => t.app.container.activityJob;
const walkRows = () =>
  t.app.container.db
    .selectFrom('activity_walks')
    .selectAll()
    .where('device_uuid', '=', collar.id)
    .execute();
const hourRows = () =>
  t.app.container.db
    .selectFrom('activity_hours')
    .selectAll()
    .where('device_uuid', '=', collar.id)
    .orderBy('hour_at')
    .execute();
const activity = async () =>
  (
    await t.app.inject({
      url: `/api/dogs/${collar.pet.id}/activity?days=7`,
      headers: bearer(owner.token),
    })
  ).json();
const minuteOf = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

describe('the activity job', () => {
  it('finds a walk in progress whole over several passes, and a rerun changes nothing', async () => {
    const start = minuteOf(t.clock.now().getTime()) - 8 * MINUTE;
    await post(minutes(start, 7, 50));
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    expect(await walkRows()).toEqual([]);
    t.clock.advance(10 * MINUTE);
    await post(minutes(start + 7 * MINUTE, 9, 50));
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    const walks = await walkRows();
    expect(walks.map((w) => [Number(w.start_at), Number(w.minutes)])).toEqual([[start, 16]]);
    const hours = await hourRows();
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    expect(await walkRows()).toEqual(walks);
    expect(await hourRows()).toEqual(hours);
    expect(hours.reduce((n, h) => n + Number(h.active), 0)).toBe(16);
  });

  it('grows a walk across the hour into the next pass, keeping its start', async () => {
    // 10:50 to 11:08 UTC, uploaded at 11:02 and at 11:10: the second pass re-examines 11:00 only.
    const eleven = Math.ceil(t.clock.now().getTime() / HOUR) * HOUR;
    t.clock.advance(eleven + 2 * MINUTE + 30_000 - t.clock.now().getTime());
    await post(minutes(eleven - 10 * MINUTE, 12, 50));
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    expect((await walkRows()).map((w) => [Number(w.start_at), Number(w.minutes)])).toEqual([
      [eleven - 10 * MINUTE, 12],
    ]);
    t.clock.advance(8 * MINUTE);
    await post(minutes(eleven + 2 * MINUTE, 7, 50));
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    expect((await walkRows()).map((w) => [Number(w.start_at), Number(w.minutes)])).toEqual([
      [eleven - 10 * MINUTE, 19],
    ]);
  });

  it('counts every minute of one upload spanning three clock hours, on the request and the job', async () => {
    // At 11:01:20 UTC, 90 readings from 09:31:20 to 11:00:20, one a minute and not on whole
    // minutes: 29 minutes of the 09:00 hour, 60 of 10:00 and 1 of 11:00. A walk 09:51–10:20.
    const eleven = Math.ceil(t.clock.now().getTime() / HOUR) * HOUR;
    t.clock.advance(eleven + MINUTE + 20_000 - t.clock.now().getTime());
    const now = t.clock.now().getTime();
    await post(
      Array.from({ length: 90 }, (_, i) => {
        const m = 90 - i;
        const walking = m >= 41 && m <= 70;
        return {
          temperature: 24,
          humidity: 45,
          heart_rate: walking ? 125 : 78,
          activity_level: walking ? 65 : 5,
          timestamp: new Date(now - m * MINUTE).toISOString(),
        };
      }),
    );
    const expectToday = async () => {
      const today = (await activity()).days.at(-1);
      expect(today).toMatchObject({ active_minutes: 30, vigorous_minutes: 30, worn_minutes: 90 });
      expect(today.level_minutes.SAFE).toBe(90);
      expect(today.walks).toEqual([expect.objectContaining({ minutes: 30 })]);
    };
    // Before the job has run: classed on the request.
    await expectToday();
    // The job's pass of every minute.
    await job().refresh(now - 2 * HOUR);
    const hours = await hourRows();
    expect(hours.map((h) => [Number(h.hour_at), Number(h.worn), Number(h.active)])).toEqual([
      [eleven - 2 * HOUR, 29, 9],
      [eleven - HOUR, 60, 21],
      [eleven, 1, 0],
    ]);
    await expectToday();
  });

  it('classes a backlog that lands hours back on its hourly pass', async () => {
    const now = t.clock.now().getTime();
    const back = minuteOf(now - 2 * 86_400_000);
    await post(minutes(back, 20, 40));
    await job().refresh(now - 2 * HOUR);
    expect(await hourRows()).toEqual([]);
    await job().refresh(now - 8 * 86_400_000);
    expect((await hourRows()).map((h) => Number(h.active)).reduce((a, b) => a + b, 0)).toBe(20);
    expect(await walkRows()).toHaveLength(1);
    const days = (await activity()).days;
    expect(days[4].active_minutes).toBe(20);
  });

  it('classes a backlog on its pass every 10 minutes, not on the minute passes between', async () => {
    await job().tick(); // the first run
    const now = t.clock.now().getTime();
    await post(minutes(minuteOf(now - 2 * 86_400_000), 20, 40));
    t.clock.advance(MINUTE);
    await job().tick(); // a minute's pass: the last 2 hours
    expect(await hourRows()).toEqual([]);
    t.clock.advance(9 * MINUTE);
    await job().tick(); // 10 minutes after the first run: the last 8 days
    expect((await hourRows()).map((h) => Number(h.active)).reduce((a, b) => a + b, 0)).toBe(20);
  });

  it("leaves a collar's hour on a sunny windowsill out: not worn, not rest, not a hot day", async () => {
    const now = minuteOf(t.clock.now().getTime());
    // A morning walk with heart rate, then the collar off its dog on a sill: 38 °C at the
    // collar, no heart rate, no movement.
    const walk = minutes(now - 120 * MINUTE, 20, 50).map((r) => ({ ...r, heart_rate: 110 }));
    const sill = minutes(now - 90 * MINUTE, 60, 0, 38);
    await post([...walk, ...sill]);
    await job().refresh(now - 3 * HOUR);
    const body = await activity();
    const today = body.days.at(-1);
    expect(today).toMatchObject({ active_minutes: 20, worn_minutes: 20, rest_minutes: 0 });
    expect(today.peak_heat_index_c).toBeLessThan(27);
    expect(body.heat_today.hot).toBe(false);
  });

  it('never counts minutes above SAFE toward the goal, and says so on a hot day', async () => {
    // 31 °C is above the default warning threshold (85 °F, 29.4 °C): the dog is at WARNING.
    const start = minuteOf(t.clock.now().getTime()) - 14 * MINUTE;
    await post(minutes(start, 12, 55, 31));
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    const body = await activity();
    const today = body.days.at(-1);
    expect(today).toMatchObject({ active_minutes: 0, heat_minutes: 12, met: false });
    expect(today.walks).toEqual([expect.objectContaining({ minutes: 12, peak_level: 'WARNING' })]);
    expect(body.heat_today).toMatchObject({ hot: true, advice: HEAT_ADVICE, level: 'WARNING' });
    // Today is not judged yet by the streak, but it is a heat day: hot, goal not met.
    expect(today.heat_day).toBe(true);
  });

  it('goes with the collar’s readings when its owner releases it', async () => {
    await post(minutes(minuteOf(t.clock.now().getTime()) - 14 * MINUTE, 12, 50));
    await job().refresh(t.clock.now().getTime() - 2 * HOUR);
    expect(await walkRows()).toHaveLength(1);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${collar.id}`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await walkRows()).toEqual([]);
    expect(await hourRows()).toEqual([]);
  });
});
