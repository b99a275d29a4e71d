// Realistic collar traces (tools/collar-sim: a day in a dog's life, dangerous episodes with the
// days before them) posted through the real ingest path as a collar uploads them, the server's
// clock moved with the trace. Only facts that any sound judgement of heat must keep: the
// figures (alerts per pet-week, minutes to the first alert) are `npm run bench:alerts`'s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertLevel } from '@pawguard/shared';
import { DAY_MS, HOUR_MS, MINUTE_MS, readingsOf, render } from '@pawguard/collar-sim/life';
import { DOG_PROFILES, weekWeather } from '@pawguard/collar-sim/week';
import { generateEpisode } from '@pawguard/collar-sim/episodes';
import {
  collarOnPet,
  heatAlerts,
  levelRank,
  replay,
  type Api,
  type Owner,
} from '@pawguard/collar-sim/replay';
import { seededRandom } from '@pawguard/collar-sim/vitals';
import { createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';

let t: TestApp;
let admin: SeededUser;
let owner: Owner;
let api: Api;
/** The traces' days end before today, so the server takes every reading as the past. */
const start = Math.floor(Date.now() / DAY_MS) * DAY_MS - 8 * DAY_MS;
const clock = { set: (at: number) => t.clock.advance(at - t.clock.now().getTime()) };

beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  const user = await seedUser(t);
  owner = { token: user.token, userId: user.id };
  api = async ({ method, url, token, deviceKey, body }) => {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(deviceKey ? { authorization: `Device ${deviceKey}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
});
afterAll(() => t.close());

const highest = (levels: (AlertLevel | null)[]) =>
  levels.reduce<AlertLevel | null>((h, l) => (levelRank(l) > levelRank(h) ? l : h), null);

describe('realistic collar traces through the real ingest path', () => {
  it('a still dog in a car parked in the sun at 30 °C: a heat alert that reaches CRITICAL', async () => {
    const e = generateEpisode('parked-car-30', 1, start);
    const collar = await collarOnPet(api, admin.token, owner, e.profile);
    // The morning at home, then the drive and the hour in the car (where the trace ends).
    const readings = readingsOf(e.minutes).filter((r) => r.timestamp >= e.dangerAt - 6 * HOUR_MS);
    expect(readings.at(-1)!.timestamp).toBeLessThan(e.dangerAt + 61 * MINUTE_MS);
    await replay(api, clock, [{ collar, readings }]);
    const inTheCar = (await heatAlerts(api, owner.token, collar)).filter(
      (a) => !a.resolved_reading_at || Date.parse(a.resolved_reading_at) > e.dangerAt,
    );
    expect(inTheCar.length).toBeGreaterThan(0);
    expect(highest(inTheCar.map((a) => a.level))).toBe('CRITICAL');
  });

  it('a healthy dog walked at midday on the first hot day after cool ones is alerted on the walk', async () => {
    const e = generateEpisode('first-hot-day-labrador', 1, start);
    const collar = await collarOnPet(api, admin.token, owner, e.profile);
    // The cool days before and the hot day, uploaded as the collar goes.
    await replay(api, clock, [{ collar, readings: readingsOf(e.minutes) }]);
    const end = e.minutes.at(-1)!.at;
    const onTheWalk = (await heatAlerts(api, owner.token, collar)).filter(
      (a) =>
        Date.parse(a.reading_at!) <= end &&
        (!a.resolved_reading_at || Date.parse(a.resolved_reading_at) > e.dangerAt),
    );
    expect(onTheWalk.length).toBeGreaterThan(0);
  });

  it('a mild day at home (asleep, dozing, lying about, pottering) opens no heat alert for a healthy Labrador', async () => {
    const profile = DOG_PROFILES.labrador;
    const days = weekWeather('mild', seededRandom(5), start, 1);
    const h = (hours: number) => start + hours * HOUR_MS;
    const segments = (
      [
        [0, 7, 'sleep'],
        [7, 7.5, 'potter'],
        [7.5, 7.6, 'meal'],
        [7.6, 10, 'rest'],
        [10, 12.5, 'nap'],
        [12.5, 13, 'potter'],
        [13, 16, 'nap'],
        [16, 18, 'rest'],
        [18, 18.2, 'meal'],
        [18.2, 22.5, 'rest'],
        [22.5, 24, 'sleep'],
      ] as const
    ).map(([from, to, behaviour]) => ({
      start: h(from),
      end: h(to),
      behaviour,
      place: 'indoors' as const,
      collar: 'worn' as const,
    }));
    const minutes = render({ profile, days, segments, seed: 5 });
    const readings = readingsOf(minutes);
    expect(readings.length).toBeGreaterThan(1400);
    const collar = await collarOnPet(api, admin.token, owner, profile);
    await replay(api, clock, [{ collar, readings }]);
    expect(await heatAlerts(api, owner.token, collar)).toEqual([]);
  });
});
