// The heat-risk scenarios of docs/heat-risk.md, as simulated collar traces posted through the
// real ingest path (HTTP, the group commit, the alert hook), one reading every 30 seconds of
// collar time while the server's clock moves with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backtestResponseSchema,
  RISK_BANDS,
  type Alert,
  type Device,
  type HealthCondition,
  type Reading,
  type RiskBand,
} from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { createDog, deviceRow, ownedCollar, passToNewOwner } from '../helpers/devices.js';
import { postAsCollar, readingRows } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
});
afterAll(() => t.close());

const STEP_S = 30;
const rank = (b: string | null | undefined) => RISK_BANDS.indexOf((b ?? 'SAFE') as RiskBand);

interface Profile {
  name: string;
  breed?: string;
  age?: number;
  weight?: number;
  health_conditions?: HealthCondition[];
}
type Sample = { temperature: number; humidity: number; activity_level: number; heart_rate: number };

/** A collar on a pet with this profile (set through the pets API, as an owner would). */
async function collarFor(profile: Profile) {
  const c = await ownedCollar(t, admin, owner, profile.name);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/dogs/${c.pet.id}`,
    headers: bearer(owner.token),
    payload: profile,
  });
  expect(res.statusCode, res.body).toBe(200);
  return c;
}
type Collar = Awaited<ReturnType<typeof collarFor>>;

/**
 * Lives `minutes` of collar time: a reading every 30 s, posted as it is taken. Answers what
 * each answer stored (the server's status and risk), oldest first.
 */
async function live(c: Collar, minutes: number, at: (minute: number) => Sample) {
  const stored: Reading[] = [];
  for (let s = 0; s <= minutes * 60; s += STEP_S) {
    t.clock.advance(STEP_S * 1000);
    const reading = { ...at(s / 60), timestamp: t.clock.now().toISOString() };
    const res = await postAsCollar(t, c.device_id, c.device_key, reading);
    expect(res.statusCode, res.body).toBe(201);
    stored.push(res.json().vitals as Reading);
  }
  return stored;
}

/** A backlog of past days, one reading every 30 minutes, sent as the collar's upload. */
async function pastDays(c: Collar, days: number, airAt: (hour: number) => number) {
  const now = t.clock.now().getTime();
  const readings = [];
  for (let m = days * 24 * 60; m >= 60; m -= 30)
    readings.push({
      temperature: airAt(((now - m * 60_000) / 3_600_000) % 24) + 2,
      humidity: 50,
      activity_level: 10,
      heart_rate: 85,
      timestamp: new Date(now - m * 60_000).toISOString(),
    });
  const res = await postAsCollar(t, c.device_id, c.device_key, readings);
  expect(res.statusCode, res.body).toBe(201);
}

const deviceOf = async (c: Collar) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/devices/${c.id}`, headers: bearer(owner.token) })
  ).json().device as Device;
const alertsOf = async (c: Collar) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/devices/${c.id}/alerts`,
      headers: bearer(owner.token),
    })
  ).json().alerts as Alert[];
const highest = (rs: Reading[], key: 'status' | 'threshold_status' | 'risk_band') =>
  RISK_BANDS[Math.max(...rs.map((r) => rank(r[key])))];
const resting = (temperature: number, humidity = 50): Sample => ({
  temperature,
  humidity,
  activity_level: 6,
  heart_rate: 85,
});

describe('heat-risk scenarios through the real ingest path', () => {
  it('exertion in the warmth: a flat-faced dog is raised while the thresholds stay SAFE', async () => {
    const c = await collarFor({ name: 'Coco', breed: 'French Bulldog', weight: 26, age: 4 });
    const rs = await live(c, 40, (m) =>
      m < 3
        ? resting(27, 65)
        : { temperature: 29, humidity: 65, activity_level: 85, heart_rate: 160 },
    );
    expect(highest(rs, 'threshold_status')).toBe('SAFE');
    // Raised, but not to "go to the vet now": nothing here is a hard trigger.
    expect(highest(rs, 'risk_band')).toBe('DANGER');
    const device = await deviceOf(c);
    // One level per dog: vitals_status is the model's band here, the thresholds' own SAFE
    // beside it.
    expect(device.threshold_status).toBe('SAFE');
    expect(rank(device.risk_band)).toBeGreaterThanOrEqual(rank('WARNING'));
    expect(device.vitals_status).toBe(device.risk_band);
    expect(device.risk_reasons.join(' | ')).toMatch(/exercise for \d+ minutes/);
    expect(device.risk_reasons.join(' | ')).toMatch(/French Bulldog/);
    // The heat alert follows the higher of the two, and says why.
    const [heat] = (await alertsOf(c)).filter((a) => a.type === 'heat');
    expect(heat).toMatchObject({ resolved: false });
    expect(heat!.reasons.join(' ')).toMatch(/exercise/);
  });

  // The first version raised this walk to DANGER: exercise counted on its own, without heat.
  it('the same exertion on a cool day raises nothing: a walk at 16 °C is no heat event', async () => {
    const c = await collarFor({ name: 'Pip', breed: 'French Bulldog', weight: 26, age: 4 });
    const rs = await live(c, 40, (m) =>
      m < 3
        ? resting(16, 60)
        : { temperature: 16, humidity: 60, activity_level: 85, heart_rate: 160 },
    );
    expect(highest(rs, 'risk_band')).toBe('SAFE');
    expect((await alertsOf(c)).filter((a) => a.type === 'heat')).toEqual([]);
  });

  it('a parked car is CRITICAL before the collar reaches the critical threshold', async () => {
    const c = await collarFor({ name: 'Max', breed: 'Labrador Retriever', weight: 65, age: 5 });
    // About 1.8 °C per 5 minutes at first, 80 % of the rise within 30 minutes.
    const rs = await live(c, 30, (m) => ({
      temperature: 24 + 14 * (1 - Math.exp(-m / 19)),
      humidity: 45,
      activity_level: 4,
      heart_rate: 100,
    }));
    const first = rs.findIndex((r) => r.risk_band === 'CRITICAL');
    expect(first).toBeGreaterThan(0);
    expect(rs[first]!.temperature).toBeLessThan(35);
    expect(rs[first]!.threshold_status).not.toBe('CRITICAL');
    expect(rs[first]!.status).toBe('CRITICAL');
    expect(rs[first]!.risk_reasons[0]).toMatch(/while Max is still: the pattern of a parked car/);
    const [heat] = (await alertsOf(c)).filter((a) => a.type === 'heat');
    expect(heat).toMatchObject({ level: 'CRITICAL', resolved: false });
    // The mail says why in one line.
    const mails = await t.app.container.db
      .selectFrom('outbox')
      .select('text_body')
      .where('to_address', '=', owner.email)
      .execute();
    expect(mails.some((m) => /Why: .*parked car/.test(m.text_body))).toBe(true);
  });

  it('a humid walk: the model rises above the plain thresholds', async () => {
    const c = await collarFor({ name: 'Bruno', breed: 'Labrador', weight: 65, age: 5 });
    const rs = await live(c, 40, () => ({
      temperature: 29.5,
      humidity: 80,
      activity_level: 55,
      heart_rate: 125,
    }));
    expect(highest(rs, 'threshold_status')).toBe('WARNING');
    expect(highest(rs, 'risk_band')).toBe('DANGER');
    expect(rs.at(-1)!.risk_reasons.join(' | ')).toMatch(/heat index \d+ °C/);
  });

  it('the first hot day weighs more than the same day for a dog used to the heat', async () => {
    // At noon (UTC, the days' boundary): a walk that crossed midnight would make its own first
    // half the hottest of the days before (and a session hours old has expired: new ones).
    const now = t.clock.now();
    const noon = new Date(now);
    noon.setUTCHours(12, 0, 0, 0);
    if (noon <= now) noon.setTime(noon.getTime() + 86_400_000);
    t.clock.advance(noon.getTime() - now.getTime());
    admin = await seedUser(t, { role: 'admin' });
    owner = await seedUser(t);
    const dog = { breed: 'Border Collie', weight: 40, age: 3 };
    const first = await collarFor({ name: 'Skye', ...dog });
    const used = await collarFor({ name: 'Nell', ...dog });
    await pastDays(first, 5, (h) => 12 + 6 * Math.sin((Math.PI * h) / 24));
    await pastDays(used, 5, (h) => 24 + 7 * Math.sin((Math.PI * h) / 24));
    const walk = () => ({ temperature: 31, humidity: 55, activity_level: 50, heart_rate: 120 });
    const a = await live(first, 25, walk);
    const b = await live(used, 25, walk);
    expect(a.at(-1)!.risk_reasons.join(' | ')).toMatch(/not used to the heat/);
    expect(b.at(-1)!.risk_reasons.join(' | ')).not.toMatch(/not used to the heat/);
    expect(a.at(-1)!.risk_score! - b.at(-1)!.risk_score!).toBeCloseTo(1, 5);
    expect(highest(a, 'risk_band')).toBe('DANGER');
    expect(highest(b, 'risk_band')).toBe('WARNING');
  });

  it('an old dog resting in a hot room: DANGER soon, CRITICAL after half an hour', async () => {
    const c = await collarFor({
      name: 'Duchess',
      breed: 'Cavalier King Charles Spaniel',
      weight: 18,
      age: 13,
      health_conditions: ['heart'],
    });
    const rs = await live(c, 40, () => resting(32, 55));
    expect(highest(rs, 'threshold_status')).toBe('WARNING');
    const byMinute = (m: number) => rs[(m * 60) / STEP_S]!;
    expect(byMinute(5).risk_band).toBe('DANGER');
    expect(byMinute(25).risk_band).toBe('DANGER');
    expect(byMinute(40).risk_band).toBe('CRITICAL');
    expect(byMinute(40).risk_reasons[0]).toMatch(/for \d+ minutes while Duchess rests/);
  });

  it('a resting dog on a pleasant day stays SAFE, even a flat-faced one', async () => {
    const c = await collarFor({ name: 'Pip', breed: 'Pug', weight: 18, age: 10 });
    const rs = await live(c, 60, (m) => resting(22 + Math.sin(m / 10), 50));
    expect(rs.every((r) => r.risk_band === 'SAFE' && r.status === 'SAFE')).toBe(true);
    expect(await alertsOf(c)).toEqual([]);
    expect((await deviceOf(c)).risk_band).toBe('SAFE');
  });

  it('a nap in a hot room is one heat alert, not one per noisy reading', async () => {
    // The collar, buried in warm fur in a close, humid room of about 26 °C, reads 29 °C at
    // 70 %: a heat index just under 33 °C, crossed every 8 minutes by a reading's noise
    // (29.2 °C). Under half an hour, before the time in the heat adds its own point.
    const c = await collarFor({ name: 'Lola', breed: 'French Bulldog', weight: 26, age: 3 });
    const rs = await live(c, 28, (m) => {
      const spike = Math.round(m * 2) % 16 === 5;
      return {
        temperature: spike ? 29.2 : 29,
        humidity: 70,
        activity_level: Math.round(m * 2) % 4,
        heart_rate: 88,
      };
    });
    expect(highest(rs, 'threshold_status')).toBe('SAFE');
    expect(highest(rs, 'risk_band')).toBe('WARNING');
    const heat = (await alertsOf(c)).filter((a) => a.type === 'heat');
    expect(heat).toHaveLength(1);
    expect(heat[0]).toMatchObject({ level: 'WARNING', resolved: false });
  });

  it('a step change outdoors does not look like a parked car', async () => {
    const c = await collarFor({ name: 'Ziggy', breed: 'Whippet', weight: 30, age: 6 });
    // Indoors at 22 °C, then out onto a 33 °C patio: the sensor follows with a 60 s lag.
    const rs = await live(c, 25, (m) =>
      resting(m < 3 ? 22 : 33 - 11 * (1 + (m - 3)) * Math.exp(-(m - 3)), 40),
    );
    expect(rs.some((r) => r.temperature > 32.5)).toBe(true);
    expect(rs.some((r) => r.risk_reasons.some((x) => /parked car/.test(x)))).toBe(false);
    expect(rs.every((r) => r.risk_band !== 'CRITICAL')).toBe(true);
    const stored = await readingRows(t, c.id);
    expect(stored.every((r) => !/parked car/.test(r.risk_reasons ?? ''))).toBe(true);
  });
});

describe('a collar that changes hands or pets', () => {
  const parkedCar = (m: number) => ({
    temperature: 24 + 14 * (1 - Math.exp(-m / 19)),
    humidity: 45,
    activity_level: 4,
    heart_rate: 100,
  });

  it('a released collar carries nothing of its last dog to its next owner', async () => {
    const c = await collarFor({ name: 'Rex' });
    await live(c, 20, parkedCar);
    expect((await deviceOf(c)).risk_band).toBe('CRITICAL');
    const { next, device } = await passToNewOwner(t, owner, c, 'Daisy');
    expect(device).toMatchObject({
      risk_band: null,
      risk_score: null,
      risk_reasons: [],
    });
    expect((await deviceRow(t, c.id))!.risk_state).toBeNull();

    t.clock.advance(60_000);
    const res = await postAsCollar(t, c.device_id, c.device_key, {
      ...resting(21),
      timestamp: t.clock.now().toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().vitals).toMatchObject({ status: 'SAFE', risk_band: 'SAFE' });
    expect(JSON.stringify(res.json().vitals.risk_reasons)).not.toMatch(/Rex/);
    const alerts = await t.app.inject({
      method: 'GET',
      url: `/api/devices/${c.id}/alerts`,
      headers: bearer(next.token),
    });
    expect(alerts.json().alerts).toEqual([]);
  });

  it('on another pet the model starts afresh', async () => {
    const c = await collarFor({ name: 'Bo' });
    await live(c, 5, () => resting(22));
    expect((await deviceRow(t, c.id))!.risk_state).not.toBeNull();
    const other = await createDog(t, owner, 'Kit');
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
      payload: { dog_id: other.id, device_name: "Kit's collar" },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().device).toMatchObject({ risk_band: null, risk_reasons: [] });
    expect((await deviceRow(t, c.id))!.risk_state).toBeNull();
  });

  it('a stored state it cannot read starts afresh, and the collar keeps posting', async () => {
    const c = await collarFor({ name: 'Zed' });
    await t.app.container.db
      .updateTable('devices')
      .set({ risk_state: '{"v":1,"days":null}' })
      .where('id', '=', c.id)
      .execute();
    const rs = await live(c, 1, () => resting(22));
    expect(rs.every((r) => r.risk_band === 'SAFE')).toBe(true);
  });

  it('a state changed in the database since this server wrote it is read again, not remembered', async () => {
    const c = await collarFor({ name: 'Pip' });
    await live(c, 20, parkedCar);
    expect((await deviceOf(c)).risk_band).toBe('CRITICAL');
    // Emptied behind the server's back: a remembered copy would still hold CRITICAL for 5 minutes.
    await t.app.container.db
      .updateTable('devices')
      .set({ risk_state: null })
      .where('id', '=', c.id)
      .execute();
    t.clock.advance(STEP_S * 1000);
    const res = await postAsCollar(t, c.device_id, c.device_key, {
      ...resting(21),
      timestamp: t.clock.now().toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().vitals.risk_band).toBe('SAFE');
  });
});

describe('GET /api/devices/{id}/risk/backtest', () => {
  it('answers what the model adds over the last days, for the owner', async () => {
    const c = await collarFor({ name: 'Otto', breed: 'French Bulldog', weight: 26, age: 4 });
    await live(c, 35, (m) =>
      m < 3
        ? resting(27, 65)
        : { temperature: 29, humidity: 65, activity_level: 85, heart_rate: 160 },
    );
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/devices/${c.id}/risk/backtest?days=7`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      days: 7,
      readings: 71,
      thresholds: { alerts: 0, minutes_elevated: 0, highest: 'SAFE' },
      model_only_alerts: 1,
    });
    expect(body.model.alerts).toBe(1);
    expect(body.model.minutes_elevated).toBeGreaterThan(10);
    // Sent as built, not parsed against its schema first: it is the schema's exact shape.
    expect(backtestResponseSchema.parse(body)).toEqual(body);
  });

  it('refuses bad days with a 400 and hides another owner’s collar with a 404', async () => {
    const c = await collarFor({ name: 'Fido' });
    const stranger = await seedUser(t);
    const get = (url: string, token = owner.token) =>
      t.app.inject({ method: 'GET', url, headers: bearer(token) });
    for (const q of ['days=0', 'days=31', 'days=abc', 'days=2.5', 'extra=1']) {
      const res = await get(`/api/devices/${c.id}/risk/backtest?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await get(`/api/devices/${c.id}/risk/backtest`, stranger.token)).statusCode).toBe(404);
    const mine = await get(`/api/devices/${c.id}/risk/backtest`);
    expect(mine.json()).toMatchObject({ days: 7, readings: 0, model_only_alerts: 0 });
  });
});
