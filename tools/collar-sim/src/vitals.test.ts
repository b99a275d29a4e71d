import { describe, expect, it } from 'vitest';
import { readingInputSchema, type VitalsStatus } from '@pawguard/shared';
import {
  advance,
  airTemperature,
  createCollar,
  scenarioFor,
  seededRandom,
  toReading,
  type Activity,
  type CollarState,
  type Scenario,
} from './vitals.js';

const FIVE_SECONDS = 5;

/** Every state of a collar over `minutes`, one per 5-second reading. */
function run(scenario: Scenario, minutes: number, seed = 1): CollarState[] {
  const random = seededRandom(seed);
  let state = createCollar(scenario, random);
  const states = [state];
  for (let i = 0; i < (minutes * 60) / FIVE_SECONDS; i++) {
    state = advance(state, FIVE_SECONDS, random);
    states.push(state);
  }
  return states;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('a simulated collar', () => {
  it('posts readings the contract accepts, in every scenario, for hours', () => {
    for (const scenario of ['normal', 'hot-day-dry', 'hot-day-humid', 'hot-car'] as const) {
      for (const state of run(scenario, 180, 3)) {
        const parsed = readingInputSchema.safeParse(toReading(state, 1_700_000_000_000));
        expect(parsed.error, `${scenario}: ${JSON.stringify(toReading(state, 0))}`).toBeUndefined();
      }
    }
  });

  it('changes smoothly from one reading to the next', () => {
    const states = run('normal', 120, 5);
    for (let i = 1; i < states.length; i++) {
      const [a, b] = [toReading(states[i - 1]!, 0), toReading(states[i]!, 0)];
      expect(Math.abs(b.temperature - a.temperature)).toBeLessThan(0.6);
      expect(Math.abs(b.humidity - a.humidity)).toBeLessThan(1.5);
      expect(Math.abs(b.heart_rate! - a.heart_rate!)).toBeLessThan(25);
    }
  });

  it('does not stand still: temperature and heart rate vary over an hour', () => {
    const readings = run('normal', 60, 9).map((s) => toReading(s, 0));
    expect(new Set(readings.map((r) => r.temperature)).size).toBeGreaterThan(5);
    expect(new Set(readings.map((r) => r.heart_rate)).size).toBeGreaterThan(5);
  });

  it('raises heart rate and activity on a walk or at play, above rest and sleep', () => {
    const byActivity = new Map<Activity, { heartRate: number[]; activityLevel: number[] }>();
    for (let seed = 1; seed <= 6; seed++) {
      for (const s of run('normal', 240, seed)) {
        // Skip the first minute of each activity: heart rate follows the dog with a lag.
        if (s.activityElapsedS < 60) continue;
        const entry = byActivity.get(s.activity) ?? { heartRate: [], activityLevel: [] };
        entry.heartRate.push(s.heartRate);
        entry.activityLevel.push(s.activityLevel);
        byActivity.set(s.activity, entry);
      }
    }
    const calm = ['rest', 'sleep'] as const;
    const active = ['walk', 'play'] as const;
    for (const a of active) {
      for (const c of calm) {
        expect(mean(byActivity.get(a)!.heartRate)).toBeGreaterThan(
          mean(byActivity.get(c)!.heartRate) + 20,
        );
        expect(mean(byActivity.get(a)!.activityLevel)).toBeGreaterThan(
          mean(byActivity.get(c)!.activityLevel) + 30,
        );
      }
    }
  });

  it('stays SAFE by the default thresholds on a mild day', () => {
    for (let seed = 1; seed <= 5; seed++) {
      expect(new Set(run('normal', 180, seed).map((s) => s.status))).toEqual(new Set(['SAFE']));
    }
  });

  it('heats slowly in a parked car, through WARNING to CRITICAL, and cools down outside', () => {
    const states = run('hot-car', 120, 4);
    const seen = new Set(states.map((s) => s.status));
    expect(seen).toContain('WARNING');
    expect(seen).toContain('CRITICAL');
    // The cabin warms every minute the car stays parked, never by a jump.
    for (let i = 1; i < states.length; i++) {
      const [before, after] = [states[i - 1]!, states[i]!];
      if (before.activity === 'car' && after.activity === 'car') {
        expect(airTemperature(after)).toBeGreaterThan(airTemperature(before) - 0.05);
        expect(airTemperature(after) - airTemperature(before)).toBeLessThan(0.2);
      }
    }
    // Out of the car, the collar is below critical again.
    const outside = states.filter((s) => s.activity === 'rest' && s.activityElapsedS > 300);
    expect(outside.length).toBeGreaterThan(0);
    for (const s of outside) expect(s.status).not.toBe('CRITICAL');
  });

  it('reaches WARNING on a dry hot day and DANGER by the heat index on a humid one', () => {
    const dry = run('hot-day-dry', 60, 2).slice(12);
    expect(dry.every((s) => s.status === 'WARNING')).toBe(true);
    const humid = run('hot-day-humid', 60, 2).slice(12);
    expect(humid.filter((s) => s.status === 'DANGER').length).toBeGreaterThan(humid.length / 2);
    expect(humid.some((s) => s.status === 'CRITICAL')).toBe(false);
  });

  it('drains the battery slowly and recharges it when low', () => {
    const states = run('normal', 120, 8);
    const drop = states[0]!.battery - states.at(-1)!.battery;
    expect(drop).toBeGreaterThan(1);
    expect(drop).toBeLessThan(10);
    let low: CollarState = { ...states[0]!, battery: 9, charging: false };
    const random = seededRandom(1);
    const levels: number[] = [];
    for (let i = 0; i < 12 * 200; i++) {
      low = advance(low, FIVE_SECONDS, random);
      levels.push(low.battery);
    }
    expect(Math.min(...levels)).toBeGreaterThanOrEqual(7);
    expect(Math.max(...levels)).toBe(100);
  });

  it('replays the same readings from the same seed', () => {
    const a = run('hot-car', 30, 42).map((s) => toReading(s, 0));
    const b = run('hot-car', 30, 42).map((s) => toReading(s, 0));
    expect(a).toEqual(b);
    expect(run('hot-car', 30, 43).map((s) => toReading(s, 0))).not.toEqual(a);
  });

  it('takes a long interval in small steps, so a 60 s interval stays stable', () => {
    const random = seededRandom(11);
    let state = createCollar('hot-car', random);
    for (let i = 0; i < 180; i++) {
      state = advance(state, 60, random);
      expect(readingInputSchema.safeParse(toReading(state, 0)).success).toBe(true);
    }
  });

  it('leaves the state it was given unchanged', () => {
    const random = seededRandom(1);
    const state = createCollar('normal', random);
    const copy = structuredClone(state);
    advance(state, 30, random);
    expect(state).toEqual(copy);
  });

  it('reports its own status by the default thresholds, with hysteresis', () => {
    const statuses: VitalsStatus[] = run('hot-car', 120, 4).map((s) => s.status);
    const reading = toReading(run('hot-car', 120, 4).at(-1)!, 1234);
    expect(reading.status).toBe(statuses.at(-1));
    expect(reading.timestamp).toBe(1234);
  });
});

describe('a heatwave', () => {
  it('puts some collars in a hot car, some on a hot day and leaves the rest mild', () => {
    const scenarios = Array.from({ length: 12 }, (_, i) => scenarioFor(i, true));
    expect(scenarios.filter((s) => s === 'hot-car')).toHaveLength(2);
    expect(scenarios.filter((s) => s === 'hot-day-humid')).toHaveLength(2);
    expect(scenarios.filter((s) => s === 'hot-day-dry')).toHaveLength(4);
    expect(scenarios.filter((s) => s === 'normal')).toHaveLength(4);
  });

  it('is a mild day for everyone without it', () => {
    expect(new Set(Array.from({ length: 12 }, (_, i) => scenarioFor(i, false)))).toEqual(
      new Set(['normal']),
    );
  });
});
