import { zonedTimeToUtc } from '@pawguard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api.js';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

const ZONE = 'America/New_York';
const MINUTE = 60_000;
/** Local wall-clock time in New York, as UTC ms. */
const ny = (day: number, hour: number, minute = 0) =>
  zonedTimeToUtc(ZONE, 2027, 3, day, hour, minute);

/**
 * A day of readings, one a minute: sleep 01:00–01:29 and 23:00–23:29, a walk 08:00–08:29
 * (active), light activity 10:00–10:09, rest 13:00–13:59 (heart rate 70), a run 18:00–18:14
 * (vigorous); only those before `until`.
 */
function day(d: number, until: number) {
  const spells: [hour: number, minutes: number, activity: number][] = [
    [1, 30, 2],
    [8, 30, 45],
    [10, 10, 20],
    [13, 60, 3],
    [18, 15, 75],
    [23, 30, 2],
  ];
  return spells
    .flatMap(([hour, minutes, activity]) =>
      Array.from({ length: minutes }, (_, i) => ({
        temperature: 22,
        humidity: 40,
        heart_rate: activity < 10 ? 70 : 110,
        activity_level: activity,
        timestamp: new Date(ny(d, hour, i) + 20_000).toISOString(),
      })),
    )
    .filter((r) => Date.parse(r.timestamp) < until);
}

let t: TestApp;
let owner: SeededUser;
let other: SeededUser;
let admin: SeededUser;
let collar: Awaited<ReturnType<typeof ownedCollar>>;
let dogId: string;

const get = (who: SeededUser, url: string) => t.app.inject({ url, headers: bearer(who.token) });
const putGoal = (who: SeededUser, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/dogs/${dogId}/goal`,
    headers: bearer(who.token),
    payload: payload as object,
  });

beforeAll(async () => {
  t = await createTestApp();
  // Wednesday 17 March 2027, 12:00 in New York: summer time began on Sunday the 14th at 02:00.
  t.clock.advance(ny(17, 12) - t.clock.now().getTime());
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
  other = await seedUser(t);
  collar = await ownedCollar(t, admin, owner);
  dogId = collar.pet.id;
  const tz = await t.app.inject({
    method: 'PUT',
    url: '/api/auth/profile/time-zone',
    headers: bearer(owner.token),
    payload: { time_zone: ZONE },
  });
  expect(tz.statusCode).toBe(200);
  const now = t.clock.now().getTime();
  for (let d = 11; d <= 17; d++) {
    const res = await postAsCollar(t, collar.device_id, collar.device_key, day(d, now));
    expect(res.statusCode, res.body).toBe(201);
  }
  // The job's first pass (at start, over every hour minute rollups still hold).
  await t.app.container.activityJob.refresh(now - 35 * 86_400_000);
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/dogs/:id/activity', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: `/api/dogs/${dogId}/activity` }), 401);
  });

  it("gives a posted week's minutes per day in the owner's zone, across the change to summer time", async () => {
    const res = await get(owner, `/api/dogs/${dogId}/activity?days=7`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.time_zone).toBe(ZONE);
    expect(body.days.map((d: { date: string }) => d.date)).toEqual([
      '2027-03-11',
      '2027-03-12',
      '2027-03-13',
      '2027-03-14',
      '2027-03-15',
      '2027-03-16',
      '2027-03-17',
    ]);
    const whole = {
      active_minutes: 45,
      vigorous_minutes: 15,
      heat_minutes: 0,
      rest_minutes: 60,
      sleep_minutes: 60,
      worn_minutes: 175,
      resting_heart_rate: 70,
      level_minutes: { SAFE: 175, WARNING: 0, DANGER: 0, CRITICAL: 0 },
    };
    for (const d of body.days.slice(0, 6)) expect(d, d.date).toMatchObject(whole);
    // Today, at noon: the night's first half hour, the morning walk and the light play.
    expect(body.days[6]).toMatchObject({
      active_minutes: 30,
      vigorous_minutes: 0,
      rest_minutes: 0,
      sleep_minutes: 30,
      worn_minutes: 70,
    });
    // The walks, at their local times on the day summer time began too.
    const sunday = body.days[3];
    expect(sunday.walks).toEqual([
      {
        start: new Date(ny(14, 8)).toISOString(),
        minutes: 30,
        peak_heat_index_c: expect.any(Number),
        peak_level: 'SAFE',
      },
      {
        start: new Date(ny(14, 18)).toISOString(),
        minutes: 15,
        peak_heat_index_c: expect.any(Number),
        peak_level: 'SAFE',
      },
    ]);
    expect(body.heat_today).toMatchObject({ hot: false, advice: null });
    // An unknown breed: 60 minutes suggested; 45 a day is short of it.
    expect(body.goal).toMatchObject({ active_minutes: 60, source: 'suggested' });
    expect(body.days[0]).toMatchObject({ goal_minutes: 60, met: false, heat_day: false });
    expect(body.streak).toEqual({ current: 0, best: 0 });
  });

  it('refuses days outside 1–90 and unknown parameters', async () => {
    for (const q of ['days=0', 'days=91', 'days=x', 'days=7&x=1'])
      expectError(await get(owner, `/api/dogs/${dogId}/activity?${q}`), 400);
    const res = await get(owner, `/api/dogs/${dogId}/activity?days=90`);
    expect(res.json().days).toHaveLength(90);
  });

  it("moves today's figure as a walk's readings arrive, before the job has run", async () => {
    const now = t.clock.now().getTime();
    const walk = Array.from({ length: 12 }, (_, i) => ({
      temperature: 22,
      humidity: 40,
      activity_level: 50,
      timestamp: new Date(now - (13 - i) * MINUTE).toISOString(),
    }));
    expect((await postAsCollar(t, collar.device_id, collar.device_key, walk)).statusCode).toBe(201);
    const today = (await get(owner, `/api/dogs/${dogId}/activity?days=1`)).json().days[0];
    expect(today.active_minutes).toBeGreaterThanOrEqual(30 + 11);
    expect(today.walks).toHaveLength(2);
  });

  it('answers an admin, and another owner 404', async () => {
    expect((await get(admin, `/api/dogs/${dogId}/activity`)).statusCode).toBe(200);
    expectError(await get(other, `/api/dogs/${dogId}/activity`), 404, 'Pet not found');
  });
});

describe('PUT /api/dogs/:id/goal', () => {
  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({
        method: 'PUT',
        url: `/api/dogs/${dogId}/goal`,
        payload: { active_minutes: 45 },
      }),
      401,
    );
  });

  it("sets the owner's goal, which judges the days and the streak; null goes back to the suggestion", async () => {
    const res = await putGoal(owner, { active_minutes: 45 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().goal).toMatchObject({
      active_minutes: 45,
      source: 'owner',
      suggested_minutes: 60,
    });
    const body = (await get(owner, `/api/dogs/${dogId}/activity?days=7`)).json();
    expect(body.days.map((d: { met: boolean }) => d.met).slice(0, 6)).toEqual(Array(6).fill(true));
    // Today not met yet: the streak of the six days before stands.
    expect(body.streak).toEqual({ current: 6, best: 6 });

    const back = await putGoal(owner, { active_minutes: null });
    expect(back.json().goal).toMatchObject({ active_minutes: 60, source: 'suggested' });
  });

  it('refuses a goal out of range or an unknown field', async () => {
    for (const body of [
      { active_minutes: 4 },
      { active_minutes: 301 },
      { active_minutes: 30.5 },
      { active_minutes: '30' },
      {},
      { active_minutes: 30, x: 1 },
    ])
      expectError(await putGoal(owner, body), 400);
  });

  it('is for the owner only: an admin is refused, another owner told 404', async () => {
    expectError(await putGoal(admin, { active_minutes: 45 }), 403);
    expectError(await putGoal(other, { active_minutes: 45 }), 404, 'Pet not found');
  });
});

describe('GET /api/dogs/:id/insights', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: `/api/dogs/${dogId}/insights` }), 401);
  });

  it('sums up the last 7 whole days, each insight naming its numbers', async () => {
    await putGoal(owner, { active_minutes: 45 });
    const res = await get(owner, `/api/dogs/${dogId}/insights`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ dog_id: dogId, from: '2027-03-10', to: '2027-03-16' });
    const goal = body.insights.find((i: { kind: string }) => i.kind === 'goal');
    expect(goal.text).toBe('Goal met on 6 of 6 days the collar was worn this week.');
    const hr = body.insights.find((i: { kind: string }) => i.kind === 'resting_heart_rate');
    expect(hr.numbers.week_resting_bpm).toBe(70);
    // No baseline yet (the 4 weeks before are empty): nothing flagged.
    expect(body.flags).toEqual([]);
    expectError(await get(other, `/api/dogs/${dogId}/insights`), 404);
    expect((await get(admin, `/api/dogs/${dogId}/insights`)).statusCode).toBe(200);
  });
});

describe('the weekly insights mail', () => {
  const url = '/api/notifications/weekly-insights';
  it('is off by default, and once on is queued once on Monday from 08:00 in the owner’s zone', async () => {
    expect((await get(owner, url)).json()).toEqual({ weekly_insights: false });
    expectError(
      await t.app.inject({
        method: 'PUT',
        url,
        headers: bearer(owner.token),
        payload: { weekly_insights: 'yes' },
      }),
      400,
    );
    const on = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(owner.token),
      payload: { weekly_insights: true },
    });
    expect(on.json()).toEqual({ weekly_insights: true });
    expect((await get(owner, url)).json()).toEqual({ weekly_insights: true });

    const mail = t.app.container.insightsMail;
    const outbox = () =>
      t.app.container.db
        .selectFrom('outbox')
        .selectAll()
        .where('idempotency_key', 'like', 'weekly-insights:%')
        .execute();
    // Turned on on a Wednesday: the first mail is next Monday's.
    expect(await mail.run()).toBe(0);
    t.clock.advance(ny(22, 7, 30) - t.clock.now().getTime());
    expect(await mail.run()).toBe(0);
    t.clock.advance(ny(22, 8, 1) - t.clock.now().getTime());
    expect(await mail.run()).toBe(1);
    expect(await mail.run()).toBe(0);
    const rows = await outbox();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.idempotency_key).toBe(`weekly-insights:${owner.id}:2027-03-22`);
    expect(rows[0]!.to_address).toBe(owner.email);
    expect(rows[0]!.text_body).toContain('Goal met on');
    // Where to turn it off: the notification settings screen, not the front page.
    expect(rows[0]!.text_body).toMatch(/where you can turn them off: http\S+\/notifications\n/);
  });
});
