// One level per dog (DESIGN §3, decision 0031): the owner's thresholds and the heat-risk model
// are two judges with one verdict, `vitals_status`, the higher of the two. Every answer that
// names the dog's level (latest vitals, readings, devices, the stream, alerts, notifications
// and mail) names the same one for the same dog at the same moment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, Device, Notification, Reading, VitalsStatus } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { listen, openStream, readingOf, type SseClient } from '../helpers/sse.js';

let t: TestApp;
let base: string;
let admin: SeededUser;
const streams: SseClient[] = [];
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  base = await listen(t);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
});

type Collar = Awaited<ReturnType<typeof ownedCollar>>;
const get = (u: SeededUser, url: string) => t.app.inject({ url, headers: bearer(u.token) });

async function owner(thresholds: { warning: number; critical: number }) {
  const u = await seedUser(t);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/notifications/preferences',
    headers: bearer(u.token),
    payload: {
      email_notifications_enabled: true,
      temperature_threshold: thresholds.warning,
      critical_temperature_threshold: thresholds.critical,
      email_frequency: 'immediate',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return u;
}

async function collarOn(u: SeededUser, pet: Record<string, unknown> & { name: string }) {
  const c = await ownedCollar(t, admin, u, pet.name);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/dogs/${c.pet.id}`,
    headers: bearer(u.token),
    payload: pet,
  });
  expect(res.statusCode, res.body).toBe(200);
  return c;
}

async function stream(u: SeededUser) {
  const ticket = (
    await t.app.inject({ method: 'POST', url: '/api/stream/ticket', headers: bearer(u.token) })
  ).json().ticket as string;
  const s = await openStream(base, ticket);
  streams.push(s);
  return s;
}

/** One reading now (the test clock moves 30 s first), answered as stored. */
async function post(c: Collar, sample: Record<string, unknown>): Promise<Reading> {
  t.clock.advance(30_000);
  const res = await postAsCollar(t, c.device_id, c.device_key, {
    ...sample,
    timestamp: t.clock.now().toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().vitals as Reading;
}

/** What every answer says the dog's level is right now. */
async function everywhere(u: SeededUser, c: Collar, s: SseClient) {
  const latest = (await get(u, `/api/devices/${c.id}/vitals/latest`)).json().vitals as Reading;
  const readings = Object.values(
    (await get(u, `/api/devices/${c.id}/readings?latest=1`)).json().readings as Record<
      string,
      Reading
    >,
  );
  const device = (await get(u, `/api/devices/${c.id}`)).json().device as Device;
  const listed = ((await get(u, '/api/devices')).json().devices as Device[]).find(
    (d) => d.id === c.id,
  )!;
  const pets = (await get(u, '/api/dogs')).json().dogs as { id: string }[];
  const heat = ((await get(u, `/api/devices/${c.id}/alerts`)).json().alerts as Alert[]).filter(
    (a) => a.type === 'heat' && !a.resolved,
  );
  const notifications = (await get(u, '/api/notifications')).json().notifications as Notification[];
  const mails = await t.app.container.db
    .selectFrom('outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', u.email)
    .execute();
  const events = s.events.filter(readingOf(c.id));
  const lastEvent = events.at(-1)?.data as
    { reading: Reading; patch: Pick<Device, 'vitals_status' | 'threshold_status'> } | undefined;
  return { latest, readings, device, listed, pets, heat, notifications, mails, lastEvent };
}

const WORD: Record<VitalsStatus, string> = {
  SAFE: 'Safe',
  WARNING: 'Warning',
  DANGER: 'Danger',
  CRITICAL: 'Critical',
};

function expectOneLevel(seen: Awaited<ReturnType<typeof everywhere>>, level: VitalsStatus) {
  expect(seen.latest.status).toBe(level);
  expect(seen.readings.map((r) => r.status)).toEqual([level]);
  expect(seen.device.vitals_status).toBe(level);
  expect(seen.listed.vitals_status).toBe(level);
  expect(seen.lastEvent?.reading.status).toBe(level);
  expect(seen.lastEvent?.patch.vitals_status).toBe(level);
  // The pet's badge is read from the collar on it: Danger for any level above SAFE.
  expect(seen.pets.map((p) => p.id)).toContain(seen.device.dog_id);
  expect(seen.heat).toHaveLength(1);
  expect(seen.heat[0]!.level).toBe(level);
  expect(seen.notifications).toHaveLength(1);
  expect(seen.notifications[0]).toMatchObject({ alert_type: 'heat', level });
  expect(seen.notifications[0]!.title).toContain(`${WORD[level]} heat alert`);
  expect(seen.mails).toHaveLength(1);
  expect(seen.mails[0]!.subject).toMatch(new RegExp(`^\\[${level}\\]`));
  expect(seen.mails[0]!.text_body).toContain(`Level: ${level}`);
}

describe('one level per dog', () => {
  it('the model raises the level while the thresholds say SAFE: every answer says the same', async () => {
    // Thresholds as high as they go: here only the model can raise the alarm.
    const u = await owner({ warning: 120, critical: 120 });
    const c = await collarOn(u, { name: 'Coco', breed: 'French Bulldog', weight: 26, age: 4 });
    const s = await stream(u);
    // A flat-faced dog resting in a warm, humid room (30 °C collar), a reading every 30 s
    // until the model first rates it above SAFE.
    let r: Reading | undefined;
    for (let i = 0; i < 80 && (!r || r.risk_band === 'SAFE' || r.risk_band === null); i++)
      r = await post(c, { temperature: 30, humidity: 60, activity_level: 5, heart_rate: 95 });
    expect(r!.threshold_status).toBe('SAFE');
    const level = r!.risk_band!;
    expect(level).toBe('WARNING');
    expect(r!.status).toBe(level);

    await s.next(
      (e) => readingOf(c.id)(e) && (e.data as { reading: Reading }).reading.id === r!.id,
    );
    const seen = await everywhere(u, c, s);
    expectOneLevel(seen, level);
    // The thresholds' and the model's own verdicts stay beside it.
    expect(seen.latest).toMatchObject({ threshold_status: 'SAFE', risk_band: level });
    expect(seen.device).toMatchObject({ threshold_status: 'SAFE', risk_band: level });
    expect(seen.lastEvent?.patch.threshold_status).toBe('SAFE');
    // The model set the level: its reason leads, and no threshold reason is given.
    expect(seen.heat[0]!.reasons[0]).toBe(seen.latest.risk_reasons[0]);
    expect(seen.heat[0]!.reasons.join(' ')).not.toMatch(/threshold/);
    expect(seen.mails[0]!.text_body).toContain(`Why: ${seen.latest.risk_reasons[0]}`);
  });

  it('the thresholds say CRITICAL while the model says SAFE: every answer says CRITICAL', async () => {
    // Thresholds as low as they go: a pleasant 23 °C (73.4 °F) collar is past critical.
    const u = await owner({ warning: 70, critical: 72 });
    const c = await collarOn(u, { name: 'Max', breed: 'Labrador Retriever', weight: 65, age: 5 });
    const s = await stream(u);
    const r = await post(c, { temperature: 23, humidity: 40, activity_level: 5, heart_rate: 80 });
    expect(r).toMatchObject({
      threshold_status: 'CRITICAL',
      risk_band: 'SAFE',
      status: 'CRITICAL',
    });

    await s.next((e) => readingOf(c.id)(e) && (e.data as { reading: Reading }).reading.id === r.id);
    const seen = await everywhere(u, c, s);
    expectOneLevel(seen, 'CRITICAL');
    expect(seen.device).toMatchObject({ threshold_status: 'CRITICAL', risk_band: 'SAFE' });
    // The thresholds set the level: their reason leads.
    expect(seen.heat[0]!.reasons[0]).toMatch(/at or above the critical threshold of 72°F/);
  });
});
