import { describe, expect, it } from 'vitest';
import { readingInputSchema } from '@pawguard/shared';
import { DAY_MS, HOUR_MS, MINUTE_MS, readingsOf, type TraceMinute } from './life.js';
import {
  BENIGN_WEEKS,
  CLIMATES,
  DOG_PROFILES,
  PROFILE_KEYS,
  WEEK_START,
  generateWeek,
} from './week.js';
import { EPISODE_KEYS, cabinRiseC, generateEpisode } from './episodes.js';

const hourOf = (at: number) => ((at - WEEK_START) % DAY_MS) / HOUR_MS;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs of consecutive minutes with the same test true, as [first, last] minute. */
function runs(minutes: readonly TraceMinute[], test: (m: TraceMinute) => boolean) {
  const out: TraceMinute[][] = [];
  let current: TraceMinute[] = [];
  for (const m of minutes) {
    if (test(m)) current.push(m);
    else if (current.length) {
      out.push(current);
      current = [];
    }
  }
  if (current.length) out.push(current);
  return out;
}

describe('a week in the life', () => {
  const week = generateWeek({ profile: DOG_PROFILES.frenchie, kind: 'warm', seed: 7 });

  it('replays the same trace for a seed and a different one for another', () => {
    const again = generateWeek({ profile: DOG_PROFILES.frenchie, kind: 'warm', seed: 7 });
    expect(again.minutes).toEqual(week.minutes);
    const other = generateWeek({ profile: DOG_PROFILES.frenchie, kind: 'warm', seed: 8 });
    expect(readingsOf(other.minutes).slice(0, 600)).not.toEqual(
      readingsOf(week.minutes).slice(0, 600),
    );
  });

  it('is a minute a step for seven days, and every reading is one the server takes', () => {
    expect(week.minutes).toHaveLength(7 * 24 * 60);
    week.minutes.forEach((m, i) => expect(m.at).toBe(WEEK_START + i * MINUTE_MS));
    const readings = readingsOf(week.minutes);
    // Out of reach now and then, but most minutes arrive.
    expect(readings.length).toBeLessThan(week.minutes.length);
    expect(readings.length).toBeGreaterThan(week.minutes.length * 0.95);
    for (const r of readings) {
      const parsed = readingInputSchema.safeParse(r);
      expect(parsed.success, JSON.stringify(r)).toBe(true);
    }
  });

  it('keeps every value within what a dog and a summer week make', () => {
    for (const { reading: r, collar } of week.minutes) {
      if (!r) continue;
      expect(r.humidity).toBeGreaterThanOrEqual(1);
      expect(r.humidity).toBeLessThanOrEqual(100);
      expect(r.battery).toBeGreaterThanOrEqual(0);
      expect(r.battery).toBeLessThanOrEqual(100);
      if (collar === 'worn') {
        expect(r.temperature).toBeGreaterThan(CLIMATES.warm.minC[0]);
        expect(r.temperature).toBeLessThan(40);
      }
      if (r.heart_rate !== undefined) {
        expect(r.heart_rate).toBeGreaterThanOrEqual(60);
        expect(r.heart_rate).toBeLessThanOrEqual(240);
      }
      if (r.activity_level !== undefined) {
        expect(r.activity_level).toBeGreaterThanOrEqual(0);
        expect(r.activity_level).toBeLessThanOrEqual(100);
      }
    }
  });

  it('leaves a field out now and then, as a collar does', () => {
    const worn = week.minutes.filter((m) => m.reading && m.collar === 'worn');
    const noHeartRate = worn.filter((m) => m.reading!.heart_rate === undefined).length;
    expect(noHeartRate).toBeGreaterThan(0);
    expect(noHeartRate).toBeLessThan(worn.length * 0.05);
  });

  it('has two or more walks a day outdoors, of 15 to 40 minutes for this dog', () => {
    for (let d = 0; d < 7; d++) {
      const day = week.minutes.slice(d * 1440, (d + 1) * 1440);
      const walks = runs(day, (m) => m.behaviour === 'walk');
      expect(walks.length).toBeGreaterThanOrEqual(2);
      for (const walk of walks) {
        expect(walk.length).toBeGreaterThanOrEqual(DOG_PROFILES.frenchie.walkMinutes[0] * 0.6);
        expect(walk.length).toBeLessThanOrEqual(DOG_PROFILES.frenchie.walkMinutes[1] + 1);
        expect(walk.every((m) => m.place === 'outdoors')).toBe(true);
      }
    }
  });

  it('sleeps at night with a slower heart than awake at rest, and moves faster on a walk', () => {
    const hr = (test: (m: TraceMinute) => boolean) =>
      median(
        week.minutes
          .filter((m) => test(m) && m.reading?.heart_rate !== undefined)
          .map((m) => m.reading!.heart_rate!),
      );
    const night = week.minutes.filter((m) => hourOf(m.at) >= 0.5 && hourOf(m.at) < 5);
    expect(night.filter((m) => m.behaviour === 'sleep').length).toBeGreaterThan(night.length * 0.9);
    const asleep = hr((m) => m.behaviour === 'sleep');
    const resting = hr((m) => m.behaviour === 'rest' && m.collar === 'worn');
    const walking = hr((m) => m.behaviour === 'walk');
    expect(asleep).toBeLessThan(resting - 10);
    expect(walking).toBeGreaterThan(resting + 15);
    const act = (b: string) =>
      median(
        week.minutes
          .filter((m) => m.behaviour === b && m.reading?.activity_level !== undefined)
          .map((m) => m.reading!.activity_level!),
      );
    expect(act('sleep')).toBeLessThan(5);
    expect(act('walk')).toBeGreaterThan(35);
    expect(act('play')).toBeGreaterThan(act('walk'));
  });

  it('puts the collar on its charger in the evening: no heart rate, no movement, battery rising', () => {
    const charging = runs(week.minutes, (m) => m.collar === 'charger');
    expect(charging.length).toBeGreaterThanOrEqual(2);
    for (const spell of charging) {
      // Off as they come in from the evening walk, or later in the evening.
      expect(hourOf(spell[0]!.at)).toBeGreaterThanOrEqual(17.5);
      const readings = spell.flatMap((m) => (m.reading ? [m.reading] : []));
      expect(readings.every((r) => r.heart_rate === undefined)).toBe(true);
      expect(readings.every((r) => (r.activity_level ?? 0) === 0)).toBe(true);
      expect(readings.at(-1)!.battery).toBeGreaterThan(readings[0]!.battery);
    }
  });

  it('leaves the collar once on a sunny windowsill, where it heats well above the room', () => {
    const sill = runs(week.minutes, (m) => m.collar === 'windowsill');
    expect(sill).toHaveLength(1);
    const readings = sill[0]!.flatMap((m) => (m.reading ? [m.reading] : []));
    expect(readings.every((r) => r.heart_rate === undefined && (r.activity_level ?? 0) === 0)).toBe(
      true,
    );
    const peak = Math.max(...readings.map((r) => r.temperature));
    expect(peak).toBeGreaterThan(sill[0]![0]!.airC + 6);
    expect(peak).toBeGreaterThan(readings[0]!.temperature + 4);
  });

  it('follows a daily cycle outdoors within its climate, humidity lowest in the afternoon', () => {
    for (const kind of BENIGN_WEEKS) {
      const w = generateWeek({ profile: DOG_PROFILES.labrador, kind, seed: 3 });
      const outdoor = w.minutes.map((m) => m.outdoorC);
      expect(Math.min(...outdoor)).toBeGreaterThanOrEqual(CLIMATES[kind].minC[0] - 0.1);
      expect(Math.max(...outdoor)).toBeLessThanOrEqual(CLIMATES[kind].maxC[1] + 0.1);
      const walksRh = (from: number, to: number) =>
        median(
          w.minutes
            .filter((m) => m.place === 'outdoors' && hourOf(m.at) >= from && hourOf(m.at) < to)
            .flatMap((m) => (m.reading ? [m.reading.humidity] : [])),
        );
      // Morning walks in damper air than the afternoon's play and evening walks.
      expect(walksRh(5, 9)).toBeGreaterThan(walksRh(13, 20));
    }
  });

  it('has, for every dog, week and seed, walks every day, the charger and one windowsill', () => {
    for (const key of PROFILE_KEYS)
      for (const kind of BENIGN_WEEKS)
        for (const seed of [1, 2, 3]) {
          const w = generateWeek({ profile: DOG_PROFILES[key], kind, seed });
          const what = `${key} ${kind} ${seed}`;
          for (let d = 0; d < 7; d++) {
            const day = w.minutes.slice(d * 1440, (d + 1) * 1440);
            expect(runs(day, (m) => m.behaviour === 'walk').length, what).toBeGreaterThanOrEqual(
              DOG_PROFILES[key].walksPerDay[0],
            );
          }
          expect(runs(w.minutes, (m) => m.collar === 'charger').length, what).toBeGreaterThan(1);
          expect(
            runs(w.minutes, (m) => m.collar === 'windowsill'),
            what,
          ).toHaveLength(1);
        }
    // 45 weeks of a reading a minute: a few seconds on a busy machine.
  }, 60_000);

  it('lives every profile and week without a dog far from its kind', () => {
    for (const key of PROFILE_KEYS) {
      const w = generateWeek({ profile: DOG_PROFILES[key], kind: 'hot', seed: 11 });
      const rest = median(
        w.minutes
          .filter((m) => m.behaviour === 'rest' && m.collar === 'worn' && m.reading?.heart_rate)
          .map((m) => m.reading!.heart_rate!),
      );
      expect(rest).toBeGreaterThan(DOG_PROFILES[key].heartRate.rest - 10);
      expect(rest).toBeLessThan(DOG_PROFILES[key].heartRate.rest + 30);
    }
  });
});

describe('dangerous episodes', () => {
  it('each starts its danger inside the trace after a lead-in of ordinary days', () => {
    for (const key of EPISODE_KEYS) {
      const e = generateEpisode(key, 1);
      const i = e.minutes.findIndex((m) => m.at === e.dangerAt);
      expect(i, key).toBeGreaterThan(3 * 24 * 60);
      expect(e.minutes.length - i, key).toBeGreaterThanOrEqual(40);
      expect(generateEpisode(key, 1).minutes).toEqual(e.minutes);
    }
  }, 30_000);

  it('heats a parked car about 1.8 °C per 5 minutes over the first half hour at 24 °C', () => {
    expect(cabinRiseC(24) * 0.8).toBeCloseTo(1.8 * 6, 5);
    const e = generateEpisode('parked-car-24', 2);
    const i = e.minutes.findIndex((m) => m.at === e.dangerAt);
    const outdoor = e.minutes[i]!.outdoorC;
    expect(outdoor).toBeGreaterThan(23);
    expect(outdoor).toBeLessThan(25.5);
    // Cooled by the drive's air conditioning, the cabin starts below outdoors…
    expect(e.minutes[i]!.airC).toBeLessThan(outdoor);
    // …and is about 1.8 °C a 5 minutes above it after half an hour.
    const rise = e.minutes[i + 30]!.airC - e.minutes[i + 30]!.outdoorC;
    expect(rise / 6).toBeGreaterThan(1.5);
    expect(rise / 6).toBeLessThan(2.1);
    // The dog lies still: the collar's activity stays low, its heart rate reported.
    const parked = e.minutes.slice(i, i + 30).flatMap((m) => (m.reading ? [m.reading] : []));
    expect(median(parked.map((r) => r.activity_level ?? 0))).toBeLessThan(15);
    expect(parked.filter((r) => r.heart_rate !== undefined).length).toBeGreaterThan(25);
  });

  it('leaves the collar on a sunny windowsill two days before a first hot day, in one episode only', () => {
    const e = generateEpisode('first-hot-day-after-windowsill', 1);
    const sill = e.minutes.filter((m) => m.collar === 'windowsill');
    expect(sill.length).toBeGreaterThanOrEqual(90);
    expect(Math.floor((e.dangerAt - sill[0]!.at) / DAY_MS)).toBe(2);
    expect(
      Math.max(...sill.flatMap((m) => (m.reading ? [m.reading.temperature] : []))),
    ).toBeGreaterThan(30);
    const plain = generateEpisode('first-hot-day-labrador', 1);
    expect(plain.minutes.some((m) => m.collar === 'windowsill')).toBe(false);
  });

  it('walks an unacclimatised dog on its first hot day after cool ones', () => {
    const e = generateEpisode('first-hot-day-labrador', 1);
    const before = e.weather.slice(0, -1);
    expect(before.every((d) => d.maxC < 20)).toBe(true);
    expect(e.weather.at(-1)!.maxC).toBeGreaterThan(30);
    const start = e.minutes.find((m) => m.at === e.dangerAt)!;
    expect(start.behaviour).toBe('walk');
    expect(start.outdoorC).toBeGreaterThan(29);
  });
});
