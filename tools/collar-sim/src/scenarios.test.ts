import { describe, expect, it } from 'vitest';
import {
  READINGS_BATCH_MAX,
  emptyRiskState,
  readingInputSchema,
  riskStep,
  type ReadingInput,
} from '@pawguard/shared';
import { SCENARIO_NAMES, SCENARIOS, type ScenarioName } from './scenarios.js';
import {
  advance,
  airTemperature,
  backlogReadings,
  BACKLOG_INTERVAL_MS,
  createCollar,
  seededRandom,
  toReading,
  type CollarState,
} from './vitals.js';

const STEP_S = 5;
const PER_MINUTE = 60 / STEP_S;
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const NOW = Date.UTC(2025, 6, 14, 13, 7, 30);
const DAY_MS = 86_400_000;

/** Every state of a collar over `minutes`, one per 5-second reading (index = minute × 12). */
function run(scenario: ScenarioName, minutes: number, seed: number): CollarState[] {
  const random = seededRandom(seed);
  let state = createCollar(scenario, random);
  const states = [state];
  for (let i = 0; i < minutes * PER_MINUTE; i++) {
    state = advance(state, STEP_S, random);
    states.push(state);
  }
  return states;
}

const readings = (states: CollarState[]) => states.map((s, i) => toReading(s, i * STEP_S * 1000));
const at = (states: CollarState[], minute: number) => states[minute * PER_MINUTE]!;
const temperatures = (states: CollarState[]) => readings(states).map((r) => r.temperature);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** What the brief asks of each scenario's day: air (°C) and humidity (%) ranges. */
const WEATHER: Partial<
  Record<ScenarioName, { airC: [number, number]; humidity: [number, number] }>
> = {
  'mild-exertion': { airC: [15, 18], humidity: [50, 60] },
  'humid-walk': { airC: [27, 28], humidity: [75, 85] },
  'first-hot-day': { airC: [29, 31], humidity: [45, 55] },
  'acclimatised-hot-day': { airC: [29, 31], humidity: [45, 55] },
  'old-dog-hot-room': { airC: [32, 33], humidity: [50, 55] },
  'pleasant-rest': { airC: [20, 22], humidity: [45, 55] },
};

describe('a named scenario', () => {
  it('posts readings the contract accepts, for hours, backlog included', () => {
    for (const name of SCENARIO_NAMES) {
      const states = run(name, 120, 3);
      for (const r of readings(states)) {
        expect(readingInputSchema.safeParse(r).error, `${name}: ${JSON.stringify(r)}`).toBe(
          undefined,
        );
      }
      for (const r of backlogReadings(states[0]!, NOW, seededRandom(3)))
        expect(readingInputSchema.safeParse(r).success, name).toBe(true);
    }
  });

  it('keeps the air and humidity in the ranges the scenario names', () => {
    for (const [name, weather] of Object.entries(WEATHER)) {
      for (const seed of SEEDS) {
        for (const s of run(name as ScenarioName, 90, seed)) {
          expect(airTemperature(s)).toBeGreaterThanOrEqual(weather.airC[0]);
          expect(airTemperature(s)).toBeLessThanOrEqual(weather.airC[1]);
          expect(s.humidity).toBeGreaterThanOrEqual(weather.humidity[0]);
          expect(s.humidity).toBeLessThanOrEqual(weather.humidity[1]);
        }
      }
    }
  });

  it('replays the same readings from the same seed, and starts at its beginning', () => {
    for (const name of SCENARIO_NAMES) {
      expect(readings(run(name, 20, 42))).toEqual(readings(run(name, 20, 42)));
      expect(run(name, 0, 42)[0]!.elapsedS).toBe(0);
    }
  });
});

describe('mild-exertion', () => {
  it('keeps a dog walking and playing without a break, its heart rate climbing above 150', () => {
    for (const seed of SEEDS) {
      const states = run('mild-exertion', 90, seed);
      const all = readings(states);
      for (const r of all) expect(r.activity_level).toBeGreaterThanOrEqual(45);
      expect(new Set(states.map((s) => s.activity))).toEqual(new Set(['walk', 'play']));
      const later = all.slice(15 * PER_MINUTE).map((r) => r.heart_rate!);
      expect(Math.min(...later)).toBeGreaterThanOrEqual(140);
      expect(mean(later)).toBeGreaterThanOrEqual(150);
      // It climbs: the first minute is well below.
      const first = all.slice(0, PER_MINUTE).map((r) => r.heart_rate!);
      expect(mean(first)).toBeLessThan(mean(later) - 25);
    }
  });
});

describe('parked-car', () => {
  it('heats steadily from about 24 °C past 33 °C within 30 minutes, the dog still', () => {
    for (const seed of SEEDS) {
      const states = run('parked-car', 28, seed);
      const temps = temperatures(states);
      expect(temps[0]).toBeGreaterThan(23);
      expect(temps[0]).toBeLessThan(25);
      for (const s of states) {
        expect(s.activity).toBe('car');
        expect(Math.round(s.activityLevel)).toBeLessThan(10);
      }
      // Over minutes 5–15 it rises in both halves of the window, not in one jump.
      const [t5, t10, t15] = [5, 10, 15].map((m) => toReading(at(states, m), 0).temperature);
      expect(t10! - t5!).toBeGreaterThan(1);
      expect(t15! - t10!).toBeGreaterThan(1);
      for (let i = 1; i < temps.length; i++)
        expect(Math.abs(temps[i]! - temps[i - 1]!)).toBeLessThan(0.3);
      expect(Math.max(...temps)).toBeGreaterThan(33);
      expect(temps.findIndex((t) => t > 33)).toBeLessThan(30 * PER_MINUTE);
    }
  });

  it('warms the cabin about 2 °C per 5 minutes, 80 % of its rise within 30 minutes', () => {
    const states = run('parked-car', 30, 5);
    const cabin = (s: CollarState) => airTemperature(s) - s.outdoorC;
    const parkedFor = (s: number) => cabin({ ...states[0]!, activityElapsedS: s });
    expect(parkedFor(1800)).toBeGreaterThanOrEqual(0.79 * parkedFor(1e9));
    const perFiveMinutes = parkedFor(1800) / 6;
    expect(perFiveMinutes).toBeGreaterThan(1.5);
    expect(perFiveMinutes).toBeLessThan(2.5);
  });

  it('takes the dog out into the shade after about 30 minutes, where the collar cools', () => {
    for (const seed of SEEDS) {
      const states = run('parked-car', 50, seed);
      const out = states.findIndex((s) => s.activity !== 'car');
      expect(out / PER_MINUTE).toBeGreaterThanOrEqual(28);
      expect(out / PER_MINUTE).toBeLessThanOrEqual(32);
      expect(states[out]!.activity).toBe('rest');
      const cooled = toReading(states[out + 10 * PER_MINUTE]!, 0);
      expect(cooled.temperature).toBeLessThan(27);
    }
  });
});

describe('humid-walk', () => {
  it('is a long walk in humid heat', () => {
    for (const seed of SEEDS) {
      for (const r of readings(run('humid-walk', 90, seed))) {
        expect(r.humidity).toBeGreaterThanOrEqual(75);
        expect(r.activity_level).toBeGreaterThan(45);
        expect(r.activity_level).toBeLessThan(65);
      }
    }
  });
});

describe('old-dog-hot-room', () => {
  it('keeps an old dog still in a steady hot room', () => {
    for (const seed of SEEDS) {
      const states = run('old-dog-hot-room', 120, seed);
      for (const r of readings(states)) expect(r.activity_level).toBeLessThan(12);
      const temps = temperatures(states.slice(5 * PER_MINUTE));
      expect(Math.max(...temps) - Math.min(...temps)).toBeLessThan(2.5);
    }
  });
});

describe('pleasant-rest', () => {
  it('stays below 26 °C and SAFE', () => {
    for (const seed of SEEDS) {
      for (const r of readings(run('pleasant-rest', 180, seed))) {
        expect(r.temperature).toBeLessThan(26);
        expect(r.status).toBe('SAFE');
      }
    }
  });
});

describe('step-change', () => {
  it('steps once from a 22 °C room onto a 33 °C patio and stays flat, the dog still there', () => {
    for (const seed of SEEDS) {
      const states = run('step-change', 60, seed);
      const step = states.findIndex((s) => s.step === 1);
      // It walks out for a minute, and lies still before and after (the activity follows the
      // dog within a minute or two).
      expect(states.filter((s) => s.step === 1).length / PER_MINUTE).toBeCloseTo(1, 0);
      const rs = readings(states);
      for (const r of rs.slice(0, step)) expect(r.activity_level).toBeLessThan(12);
      for (const r of rs.slice(step + 3 * PER_MINUTE)) expect(r.activity_level).toBeLessThan(12);
      expect(step / PER_MINUTE).toBeCloseTo(3, 0);
      expect(airTemperature(states[step - 1]!)).toBeLessThan(23);
      expect(airTemperature(states[step]!)).toBeGreaterThan(32);
      const temps = temperatures(states);
      const before = temps[step - 1]!;
      const after = mean(temps.slice(step + 10 * PER_MINUTE));
      const rise = after - before;
      expect(rise).toBeGreaterThan(8);
      // More than 80 % of the rise within 4 minutes: one step, not a climb over 10 minutes.
      expect(temps[step + 4 * PER_MINUTE]! - before).toBeGreaterThan(0.8 * rise);
      for (const t of temps.slice(step + 5 * PER_MINUTE))
        expect(Math.abs(t - after)).toBeLessThan(1);
    }
  });
});

describe('the backlog of first-hot-day and acclimatised-hot-day', () => {
  const backlog = (name: ScenarioName, seed: number): ReadingInput[] =>
    backlogReadings(createCollar(name, seededRandom(seed)), NOW, seededRandom(seed + 1));
  const times = (list: ReadingInput[]) => list.map((r) => r.timestamp as number);

  it('covers the last 5 days, a reading every 30 minutes, oldest first, in the past', () => {
    for (const name of ['first-hot-day', 'acclimatised-hot-day'] as const) {
      const list = backlog(name, 1);
      expect(list.length).toBe(240);
      expect(list.length).toBeLessThanOrEqual(READINGS_BATCH_MAX);
      const t = times(list);
      for (let i = 1; i < t.length; i++) expect(t[i]! - t[i - 1]!).toBe(BACKLOG_INTERVAL_MS);
      expect(t.at(-1)!).toBeLessThan(NOW - 60_000);
      expect(t[0]!).toBeGreaterThan(NOW - 7 * DAY_MS);
      expect(t[0]!).toBeLessThanOrEqual(NOW - 5 * DAY_MS + BACKLOG_INTERVAL_MS);
    }
  });

  it('was cool before the first hot day: no collar reading above 24 °C', () => {
    for (const seed of SEEDS) {
      const list = backlog('first-hot-day', seed);
      expect(Math.max(...list.map((r) => r.temperature))).toBeLessThanOrEqual(24);
      // Air of 12–19 °C: the nights read cooler than 17 °C at the collar.
      expect(Math.min(...list.map((r) => r.temperature))).toBeLessThan(17);
    }
  });

  it('was as hot every day before an acclimatised dog walks today', () => {
    for (const seed of SEEDS) {
      const list = backlog('acclimatised-hot-day', seed);
      const today = toReading(createCollar('acclimatised-hot-day', seededRandom(seed)), NOW);
      for (let day = 0; day < 5; day++) {
        const from = NOW - (day + 1) * DAY_MS;
        const temps = list
          .filter((r) => (r.timestamp as number) >= from && (r.timestamp as number) < from + DAY_MS)
          .map((r) => r.temperature);
        // Air peaks of 29–32 °C, read at the collar with the dog's warmth.
        expect(Math.max(...temps)).toBeGreaterThan(31);
        expect(Math.max(...temps)).toBeGreaterThan(today.temperature - 2);
      }
    }
  });

  it('is the same hot day for both; the other scenarios upload no backlog', () => {
    expect(readings(run('first-hot-day', 30, 4))).toEqual(
      readings(run('acclimatised-hot-day', 30, 4)),
    );
    for (const name of SCENARIO_NAMES.filter((n) => !n.endsWith('hot-day')))
      expect(backlog(name, 1)).toEqual([]);
  });
});

describe("a scenario's dog", () => {
  it('has the profile the scenario is about', () => {
    expect(SCENARIOS['mild-exertion'].pet).toEqual({ breed: 'French Bulldog', weight: 26, age: 4 });
    expect(SCENARIOS['humid-walk'].pet).toEqual({
      breed: 'Labrador Retriever',
      weight: 65,
      age: 5,
    });
    for (const name of ['first-hot-day', 'acclimatised-hot-day'] as const)
      expect(SCENARIOS[name].pet).toEqual({ breed: 'Border Collie', weight: 40, age: 3 });
    expect(SCENARIOS['old-dog-hot-room'].pet).toEqual({
      breed: 'Cavalier King Charles Spaniel',
      weight: 18,
      age: 13,
      health_conditions: ['heart'],
    });
    expect(SCENARIOS['parked-car'].description).toMatch(/parked car/);
  });
});

describe('what the heat-risk model makes of each scenario (the demo shows these)', () => {
  /** The scenario's readings through the model, with its pet's profile: every assessment. */
  function judged(scenario: ScenarioName, minutes: number, seed: number) {
    const { breed, weight, age, health_conditions } = SCENARIOS[scenario].pet;
    const profile = { name: 'Rex', breed, age, weightLbs: weight, conditions: health_conditions };
    let risk = emptyRiskState();
    return run(scenario, minutes, seed).map((state, i) => {
      const r = toReading(state, NOW + i * STEP_S * 1000);
      const step = riskStep(risk, { ...r, at: Number(r.timestamp) }, profile);
      risk = step.state;
      return step.assessment;
    });
  }

  it.each(SEEDS)('parked-car shows the parked-car pattern within 15 minutes (seed %i)', (seed) => {
    const first = judged('parked-car', 25, seed).findIndex((a) => a.trigger === 'parked-car');
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(15 * PER_MINUTE);
  });

  it.each(SEEDS)('step-change never looks like a parked car (seed %i)', (seed) => {
    expect(judged('step-change', 40, seed).some((a) => a.trigger === 'parked-car')).toBe(false);
  });

  it.each(SEEDS)('pleasant-rest stays SAFE for an hour (seed %i)', (seed) => {
    expect(judged('pleasant-rest', 60, seed).every((a) => a.band === 'SAFE')).toBe(true);
  });
});
