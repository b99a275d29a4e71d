// "Collar off?" through the real ingest path (docs/heat-risk.md, "Collar off"): a collar that
// reports heart rate, then sends neither a heart rate nor movement, is shown as off, raises no
// heat alert below the owner's DANGER and CRITICAL (which stay hard limits: a worn collar whose
// sensor lost the skin sends the same), and its owner is told once (in the app, never by mail)
// when it comes off in the day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, Device, Notification } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
/**
 * Moves the server's clock on to the next time it is this hour (UTC), and signs in people
 * afresh there (a session from hours before has expired).
 */
async function moveToHour(hour: number) {
  const now = t.clock.now();
  const next = new Date(now);
  next.setUTCHours(hour, 0, 0, 0);
  if (next <= now) next.setTime(next.getTime() + 24 * HOUR);
  t.clock.advance(next.getTime() - now.getTime());
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
}

type Collar = Awaited<ReturnType<typeof ownedCollar>>;
type Sample = {
  temperature: number;
  humidity: number;
  activity_level?: number;
  heart_rate?: number;
  battery?: number;
};

/** A reading a minute for `minutes`, posted as taken, by a collar whose clock is `behind`. */
async function live(c: Collar, minutes: number, at: (minute: number) => Sample, behind = 0) {
  for (let m = 0; m < minutes; m++) {
    t.clock.advance(60_000);
    const res = await postAsCollar(t, c.device_id, c.device_key, {
      ...at(m),
      timestamp: new Date(t.clock.now().getTime() - behind).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}
const worn = (m: number): Sample => ({
  temperature: 24,
  humidity: 50,
  activity_level: m % 10 === 9 ? 40 : 6,
  heart_rate: 92,
});
/** On a sunny sill: no heart rate, no movement, the sun's heat climbing to 36 °C. */
const sill = (m: number): Sample => ({
  temperature: Math.min(24 + 0.6 * m, 36),
  humidity: 35,
  activity_level: 0,
});
/** The same, climbing on to 46 °C: past the owner's critical threshold (105 °F). */
const hotSpot = (m: number): Sample => ({ ...sill(m), temperature: Math.min(24 + 0.6 * m, 46) });

const get = async <T>(url: string): Promise<T> => {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(owner.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const deviceOf = async (c: Collar) =>
  (await get<{ device: Device }>(`/api/devices/${c.id}`)).device;
const alertsOf = async (c: Collar) =>
  (await get<{ alerts: Alert[] }>(`/api/devices/${c.id}/alerts`)).alerts;
const notificationsOf = async (c: Collar) =>
  (
    await get<{ notifications: Notification[] }>('/api/notifications?limit=100')
  ).notifications.filter((n) => n.device === c.id);
const mailsTo = async (email: string) =>
  t.app.container.db
    .selectFrom('outbox')
    .select(['subject', 'text_body'])
    .where('to_address', '=', email)
    .execute();

describe('collar off', () => {
  it('a collar left on a sunny sill by day: "Collar off?", one quiet note, no heat alert', async () => {
    await moveToHour(10);
    const c = await ownedCollar(t, admin, owner, 'Biscuit');
    await live(c, 30, worn);
    expect((await deviceOf(c)).collar_off).toBe(false);
    await live(c, 45, sill);

    const device = await deviceOf(c);
    expect(device.collar_off).toBe(true);
    // 36 °C is past the owner's warning threshold (85 °F), but it is a sill's heat, not the dog's.
    expect(device.temperature_celsius).toBe(36);
    expect(device.threshold_status).toBe('WARNING');
    expect(device.risk_band).toBe('SAFE');
    expect(device.risk_reasons).toEqual([]);
    const alerts = await alertsOf(c);
    expect(alerts.filter((a) => a.type === 'heat')).toEqual([]);
    const off = alerts.filter((a) => a.type === 'collar_off');
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({ resolved: false, level: null });
    const notes = await notificationsOf(c);
    expect(notes.map((n) => n.title)).toEqual(["Biscuit's collar seems to be off"]);
    expect(notes[0]!.message).toMatch(/all is well/);
    expect((await mailsTo(owner.email)).filter((m) => /collar/i.test(m.subject))).toEqual([]);

    // Back on the dog: shown as worn again, the note's alert ended, nothing new sent.
    await live(c, 5, worn);
    expect((await deviceOf(c)).collar_off).toBe(false);
    expect((await alertsOf(c)).find((a) => a.type === 'collar_off')).toMatchObject({
      resolved: true,
    });
    expect(await notificationsOf(c)).toHaveLength(1);
  });

  it('judged off but past the critical threshold: the heat alert opens all the same, saying the collar may be off', async () => {
    // A worn collar whose heart-rate sensor lost the skin, on a still dog in a hot car, sends
    // what a sill sends: the owner's thresholds stay hard limits there.
    await moveToHour(10);
    const c = await ownedCollar(t, admin, owner, 'Pepper');
    await live(c, 30, worn);
    await live(c, 45, hotSpot);

    expect((await deviceOf(c)).collar_off).toBe(true);
    const heat = (await alertsOf(c)).filter((a) => a.type === 'heat');
    expect(heat).toHaveLength(1);
    expect(heat[0]).toMatchObject({ level: 'CRITICAL', resolved: false });
    expect(heat[0]!.reasons[0]).toMatch(/the collar may be off its dog .* this heat is dangerous/);
    expect(heat[0]!.reasons[1]).toMatch(/at or above the critical threshold of 105°F/);
    // Mailed like any heat alert.
    expect((await mailsTo(owner.email)).some((m) => /CRITICAL/.test(m.subject))).toBe(true);
  });

  it('a collar put down somewhere hot raises no heat alert in the minutes before it is judged off', async () => {
    await moveToHour(10);
    const c = await ownedCollar(t, admin, owner, 'Bonnie');
    await live(c, 20, worn);
    // Past the owner's warning threshold (85 °F) from its first reading without the dog.
    await live(c, 4, () => ({ temperature: 31, humidity: 40, activity_level: 0 }));
    expect((await deviceOf(c)).collar_off).toBe(false);
    expect((await alertsOf(c)).filter((a) => a.type === 'heat')).toEqual([]);
  });

  it('off again within the hour is the same restless spell: not told twice', async () => {
    await moveToHour(11);
    const c = await ownedCollar(t, admin, owner, 'Rosie');
    await live(c, 20, worn);
    await live(c, 10, sill);
    await live(c, 10, worn);
    await live(c, 10, sill);
    expect((await deviceOf(c)).collar_off).toBe(true);
    expect(await notificationsOf(c)).toHaveLength(1);
  });

  it("day and night are the owner's, in their time zone", async () => {
    const inTokyo = async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/profile/time-zone',
        headers: bearer(owner.token),
        payload: { time_zone: 'Asia/Tokyo' },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const offSpell = async (name: string) => {
      const c = await ownedCollar(t, admin, owner, name);
      await live(c, 20, worn);
      await live(c, 20, () => ({ temperature: 23, humidity: 45, activity_level: 0 }));
      expect((await deviceOf(c)).collar_off).toBe(true);
      return notificationsOf(c);
    };
    // Off at about 22:25 UTC: night in UTC, 07:25 in Tokyo (UTC+9, no summer time).
    await moveToHour(22);
    await inTokyo();
    expect((await offSpell('Hana')).map((n) => n.title)).toEqual(["Hana's collar seems to be off"]);
    // Off at about 13:25 UTC: day in UTC, 22:25 in Tokyo: nobody is woken.
    await moveToHour(13);
    await inTokyo();
    expect(await offSpell('Kuma')).toEqual([]);
  });

  it('on the charger at night: shown as off, but nobody is woken', async () => {
    await moveToHour(23);
    const c = await ownedCollar(t, admin, owner, 'Max');
    await live(c, 20, worn);
    await live(c, 20, () => ({ temperature: 23, humidity: 45, activity_level: 0 }));
    expect((await deviceOf(c)).collar_off).toBe(true);
    expect(await alertsOf(c)).toEqual([]);
    expect(await notificationsOf(c)).toEqual([]);
  });
});

describe('a collar back in reach with the readings it kept', () => {
  /**
   * `minutes` readings a minute apart ending at the server's now (on a clock `behind`), sent as
   * lists cut at `cuts` (none: one upload).
   */
  async function inLists(
    c: Collar,
    minutes: number,
    cuts: number[],
    at: (m: number) => Sample,
    behind = 0,
  ) {
    const end = t.clock.now().getTime() - behind;
    const readings = Array.from({ length: minutes }, (_, m) => ({
      ...at(m),
      timestamp: new Date(end - (minutes - 1 - m) * 60_000).toISOString(),
    }));
    const bounds = [0, ...cuts, minutes];
    for (let i = 1; i < bounds.length; i++) {
      const res = await postAsCollar(
        t,
        c.device_id,
        c.device_key,
        readings.slice(bounds[i - 1], bounds[i]),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
  }
  const titles = async (c: Collar) => (await notificationsOf(c)).map((n) => n.title);

  it('tells nothing of the charger sessions and the low battery hours ago, only of the present', async () => {
    await moveToHour(8);
    const c = await ownedCollar(t, admin, owner, 'Nala');
    await live(c, 20, (m) => ({ ...worn(m), battery: 60 }));
    // Out of reach for three hours (the collar kept what it measured), then all of it at once:
    // an hour worn, 40 minutes on a charger by day with its battery low, then worn and charged.
    t.clock.advance(3 * HOUR);
    await inLists(c, 180, [], (m) =>
      m >= 60 && m < 100 ? { ...sill(0), battery: 12 } : { ...worn(m), battery: m < 60 ? 25 : 90 },
    );
    expect((await deviceOf(c)).collar_off).toBe(false);
    expect(await alertsOf(c)).toEqual([]);
    expect(await notificationsOf(c)).toEqual([]);

    // Away again, and back with a battery that is low now: that is told.
    t.clock.advance(2 * HOUR);
    await inLists(c, 120, [], (m) => ({ ...worn(m), battery: m < 100 ? 40 : 15 }));
    const alerts = await alertsOf(c);
    expect(alerts.map((a) => [a.type, a.resolved])).toEqual([['low_battery', false]]);
    expect((await notificationsOf(c)).map((n) => n.title)).toEqual(['Nala: collar battery low']);
  });

  it('tells nothing of what ends a list, or a slice of one, hours ago: only the list that ends now speaks', async () => {
    await moveToHour(6);
    const c = await ownedCollar(t, admin, owner, 'Juno');
    await live(c, 20, (m) => ({ ...worn(m), battery: 90 }));
    // Ten hours out of reach. The week's collars send what they kept in lists of up to 1,000,
    // stored in slices of 250 (each a commit of its own); here each list and each slice ends
    // on a charger with the battery low, hours before now.
    t.clock.advance(10 * HOUR);
    const charging = (m: number) => m % 250 >= 240 || m % 200 >= 190;
    // The first 400 minutes in one list of 400 (two slices of 250 and 150 would end at 249 and
    // 399), then the rest as lists of 100.
    await inLists(c, 600, [400, 500], (m) =>
      charging(m) && m < 540 ? { ...sill(0), battery: 12 } : { ...worn(m), battery: 90 },
    );
    expect((await deviceOf(c)).collar_off).toBe(false);
    expect(await alertsOf(c)).toEqual([]);
    expect(await notificationsOf(c)).toEqual([]);
  });

  it('tells of an off spell that began in the backlog and goes on now, once', async () => {
    await moveToHour(8);
    const c = await ownedCollar(t, admin, owner, 'Rocky');
    await live(c, 20, worn);
    t.clock.advance(HOUR);
    // Taken off 30 minutes ago, and still off.
    await inLists(c, 60, [], (m) => (m < 30 ? worn(m) : sill(0)));
    expect((await deviceOf(c)).collar_off).toBe(true);
    expect((await alertsOf(c)).map((a) => [a.type, a.resolved])).toEqual([['collar_off', false]]);
    await live(c, 5, () => sill(0));
    expect((await notificationsOf(c)).map((n) => n.title)).toEqual([
      "Rocky's collar seems to be off",
    ]);
  });

  it('tells of an off spell that began in a list hours old and goes on in the list that ends now, once', async () => {
    await moveToHour(4);
    const c = await ownedCollar(t, admin, owner, 'Bruno');
    await live(c, 20, worn);
    // Eight hours out of reach: taken off at minute 350 (10:10) and left on a sill. The lists
    // of 250, 150 and 80 end 230 and 80 minutes ago, then now, still off.
    t.clock.advance(8 * HOUR);
    const end = t.clock.now().getTime();
    const minutes = 480;
    const readings = Array.from({ length: minutes }, (_, m) => ({
      ...(m < 350 ? worn(m) : sill(0)),
      timestamp: new Date(end - (minutes - 1 - m) * 60_000).toISOString(),
    }));
    for (const list of [readings.slice(0, 250), readings.slice(250, 400)]) {
      const res = await postAsCollar(t, c.device_id, c.device_key, list);
      expect(res.statusCode, res.body).toBe(201);
    }
    // Nothing yet: those lists ended over an hour ago.
    expect(await notificationsOf(c)).toEqual([]);
    const res = await postAsCollar(t, c.device_id, c.device_key, readings.slice(400));
    expect(res.statusCode, res.body).toBe(201);
    expect((await deviceOf(c)).collar_off).toBe(true);
    expect((await alertsOf(c)).map((a) => [a.type, a.resolved])).toEqual([['collar_off', false]]);
    await live(c, 5, () => sill(0));
    expect((await notificationsOf(c)).map((n) => n.title)).toEqual([
      "Bruno's collar seems to be off",
    ]);
  });

  it('tells of a restless episode (off, back on briefly, off until now) once, however the lists are cut', async () => {
    // Off at minutes 100-129, worn 40 minutes (the same episode: under an hour), off from 170.
    const restless = (m: number) => ((m >= 100 && m < 130) || m >= 170 ? sill(m) : worn(m));
    // Off at 60-89, quiet again from 150 (an hour after): cut at 154, the list ends over an hour
    // after the first spell and before the quiet is a spell (the same episode) of its own.
    const late = (m: number) => ((m >= 60 && m < 90) || m >= 150 ? sill(m) : worn(m));
    for (const [name, cuts, trace] of [
      ['Ace', [], restless],
      ['Bo', [140], restless],
      ['Cy', [115, 160], restless],
      ['Di', [154], late],
    ] as const) {
      await moveToHour(8);
      const c = await ownedCollar(t, admin, owner, name);
      await live(c, 20, worn);
      t.clock.advance(4 * HOUR);
      await inLists(c, 240, [...cuts], trace);
      expect((await deviceOf(c)).collar_off, name).toBe(true);
      expect(await titles(c), name).toEqual([`${name}'s collar seems to be off`]);
    }
  });

  it('tells a collar 55 minutes behind of a spell begun in its older list, from its short last list', async () => {
    await moveToHour(8);
    const c = await ownedCollar(t, admin, owner, 'Dot');
    const behind = 55 * 60_000;
    await live(c, 20, worn, behind);
    t.clock.advance(3 * HOUR);
    // Judged off in the first list (which ends over an hour ago); the second holds 6 minutes.
    await inLists(c, 180, [174], (m) => (m < 166 ? worn(m) : sill(m)), behind);
    expect(await titles(c)).toEqual(["Dot's collar seems to be off"]);
  });

  it('says nothing of a spell that ended in an older list when the newest minutes are quiet', async () => {
    await moveToHour(6);
    const c = await ownedCollar(t, admin, owner, 'Echo');
    await live(c, 20, worn);
    t.clock.advance(5 * HOUR);
    // Off at minutes 100-199 (a list hours old), back on; the last 3 minutes without a sign of
    // the dog are not yet a collar off.
    await inLists(c, 300, [150], (m) => ((m >= 100 && m < 200) || m >= 297 ? sill(m) : worn(m)));
    expect((await deviceOf(c)).collar_off).toBe(false);
    expect(await alertsOf(c)).toEqual([]);
    expect(await titles(c)).toEqual([]);
  });

  it('judges a spell by when it began: a night on the charger sent at 08:00 is not told, a spell begun at 20:00 sent at 22:30 is', async () => {
    await moveToHour(21);
    const night = await ownedCollar(t, admin, owner, 'Fig');
    await live(night, 20, worn);
    // 08:00 the next morning.
    t.clock.advance(10 * HOUR + 40 * 60_000);
    // On the charger from midnight until now.
    await inLists(night, 600, [500], (m) => (m >= 120 ? sill(m) : worn(m)));
    expect((await deviceOf(night)).collar_off).toBe(true);
    expect(await titles(night)).toEqual([]);

    await moveToHour(16);
    const evening = await ownedCollar(t, admin, owner, 'Gus');
    await live(evening, 20, worn);
    t.clock.advance(6 * HOUR + 10 * 60_000);
    // Off from about 20:00, in a list that ends at 21:10; the next ends now, 22:30.
    await inLists(evening, 360, [280], (m) => (m >= 210 ? sill(m) : worn(m)));
    expect(await titles(evening)).toEqual(["Gus's collar seems to be off"]);
  });

  it('never tells a spell again once its owner has resolved the alert', async () => {
    await moveToHour(8);
    const c = await ownedCollar(t, admin, owner, 'Hal');
    await live(c, 20, worn);
    t.clock.advance(4 * HOUR);
    await inLists(c, 240, [120], (m) => (m >= 60 ? sill(m) : worn(m)));
    const alert = (await alertsOf(c)).find((a) => a.type === 'collar_off')!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${alert.id}/resolve`,
      headers: bearer(owner.token),
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    await live(c, 10, sill);
    expect((await alertsOf(c)).map((a) => [a.type, a.resolved])).toEqual([['collar_off', true]]);
    expect(await titles(c)).toEqual(["Hal's collar seems to be off"]);
  });

  it('tells a collar whose clock is 15 minutes behind of its low battery, as any other', async () => {
    await moveToHour(8);
    const c = await ownedCollar(t, admin, owner, 'Coco');
    await live(c, 5, (m) => ({ ...worn(m), battery: m < 3 ? 50 : 15 }), 15 * 60_000);
    expect((await alertsOf(c)).map((a) => [a.type, a.resolved])).toEqual([['low_battery', false]]);
  });
});
