// What a virtual collar measures, as pure functions of its state, the time passed and a
// seeded random source: no clock, no I/O, so the same seed replays the same dog.
import {
  DEFAULT_PREFERENCES,
  vitalsStatus,
  type ReadingInput,
  type Thresholds,
  type VitalsStatus,
} from '@pawguard/shared';
import type { ScenarioName } from './scenarios.js';

/**
 * What the dog is doing; each sets where heart rate, activity and body heat head. `lie`:
 * awake but lying still (a named scenario's dog on a patio or in a hot room).
 */
export type Activity = 'sleep' | 'rest' | 'lie' | 'walk' | 'play' | 'car';

/**
 * The day a collar lives through. `normal`: a mild day, SAFE. `hot-day`: a heatwave
 * outdoors, dry (WARNING) or humid (the heat index reaches DANGER). `hot-car`: a heatwave
 * with spells in a parked car whose cabin slowly heats up to CRITICAL, then out in the shade.
 * A `ScenarioName` (--scenario) follows its own plan from its start: see PLANS.
 */
export type Scenario = FleetScenario | ScenarioName;
/** The days `--heatwave` (or its absence) gives a fleet, a collar at random points of them. */
type FleetScenario = 'normal' | 'hot-day-dry' | 'hot-day-humid' | 'hot-car';

export interface CollarState {
  scenario: Scenario;
  activity: Activity;
  /** Which step of its plan a named scenario is at (0 for the others). */
  step: number;
  /** Seconds since the collar started (a named scenario's dog tires with it). */
  elapsedS: number;
  /** Seconds until the dog does something else. */
  activityLeftS: number;
  /** Seconds the current activity has lasted (a car's cabin heats with it). */
  activityElapsedS: number;
  /** The day's air temperature outdoors (°C); drifts slowly. */
  outdoorC: number;
  /** Where the day's air temperature drifts around (°C). */
  outdoorMeanC: number;
  /** Air humidity around the dog (%), and where it drifts around. */
  humidity: number;
  humidityMean: number;
  /** What the sensor next to the dog reads (°C), and how fast it is changing (°C/s). */
  temperatureC: number;
  temperatureRate: number;
  heartRate: number;
  /** This dog's resting heart rate offset (small dogs run faster). */
  heartRateOffset: number;
  activityLevel: number;
  /** Battery in % (fractional); `charging` after it ran low, until full. */
  battery: number;
  charging: boolean;
  /** The collar's own judgement by the default thresholds, kept for its hysteresis. */
  status: VitalsStatus;
}

/** A random source returning numbers in [0, 1). */
export type Random = () => number;

/** mulberry32: a small, fast, seedable generator; plenty for simulated dogs. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal sample (Box–Muller). */
export function gaussian(random: Random): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export const between = (random: Random, min: number, max: number) => min + random() * (max - min);
export const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** Where heart rate (bpm) and activity (%) head for each activity, before heat stress. */
const ACTIVITY_TARGETS: Record<Activity, { heartRate: number; activityLevel: number }> = {
  sleep: { heartRate: 62, activityLevel: 3 },
  rest: { heartRate: 85, activityLevel: 12 },
  lie: { heartRate: 78, activityLevel: 5 },
  walk: { heartRate: 118, activityLevel: 55 },
  play: { heartRate: 150, activityLevel: 88 },
  car: { heartRate: 100, activityLevel: 8 },
};

/** How long each activity lasts (seconds). A car spell is short unless it is the scenario. */
const DURATIONS: Record<Activity, [number, number]> = {
  sleep: [20 * 60, 60 * 60],
  rest: [5 * 60, 20 * 60],
  lie: [10 * 60, 30 * 60],
  walk: [10 * 60, 30 * 60],
  play: [3 * 60, 10 * 60],
  car: [3 * 60, 8 * 60],
};
/** A parked car in the heat: long enough for the cabin to pass the critical threshold. */
const HOT_CAR_PARKED_S: [number, number] = [18 * 60, 28 * 60];
/** After a car spell the dog cools down in the shade. */
const HOT_CAR_SHADE_S: [number, number] = [8 * 60, 14 * 60];

/**
 * A parked car's cabin approaches outdoor + this many °C (about 45 °F within the hour, as
 * measured in studies of closed cars on hot days) with this time constant: about +10 °C in
 * ten minutes.
 */
const CAR_RISE_C = 22;
const CAR_TIME_CONSTANT_S = 900;
/** Any other car ride has the windows down or the air conditioning on: it barely warms. */
const MILD_CAR_RISE_C = 2;
/**
 * `parked-car` starts on a mild day (about 22 °C) and keeps the studies' shape, 80 % of the rise
 * within the first 30 minutes, more gently: about +2 °C per 5 minutes over the first half hour
 * (the studies' average is 1.8), so the collar climbs steadily from about 24 °C past 35 °C.
 */
const PARKED_CAR_RISE_C = 16;
const PARKED_CAR_TIME_CONSTANT_S = 1800 / Math.log(5);

const minutes = (m: number) => m * 60;
/** A step that lasts as long as any demo. */
const FOREVER: [number, number] = [24 * 3600, 24 * 3600];

/** One step of a named scenario: what the dog does, for how long (seconds), and where. */
interface Step {
  activity: Activity;
  durationS: [number, number];
  /** The air (°C) the step happens in when it is not the day's: a room, a patio. */
  airC?: [number, number];
}

/** How a named scenario unfolds: the day's weather, and its steps in turn, then again. */
interface Plan {
  /** Air (°C) and humidity (%) ranges; the readings never leave them. */
  weather: { outdoorC: [number, number]; humidity: [number, number] };
  steps: Step[];
  /** A flat-faced dog working without a break: its heart rate climbs by up to this (bpm). */
  strainBpm?: number;
}

const HOT_DAY_WALK: Plan = {
  weather: { outdoorC: [29, 31], humidity: [45, 55] },
  steps: [{ activity: 'walk', durationS: FOREVER }],
};

const PLANS: Record<ScenarioName, Plan> = {
  'mild-exertion': {
    weather: { outdoorC: [15, 18], humidity: [50, 60] },
    steps: [
      { activity: 'walk', durationS: [minutes(10), minutes(20)] },
      { activity: 'play', durationS: [minutes(3), minutes(8)] },
    ],
    strainBpm: 50,
  },
  'parked-car': {
    weather: { outdoorC: [21, 22.5], humidity: [40, 60] },
    steps: [
      { activity: 'car', durationS: [minutes(28), minutes(32)] },
      // Out in the shade, then (in a long demo) left in the car again.
      { activity: 'rest', durationS: [minutes(20), minutes(30)] },
    ],
  },
  'humid-walk': {
    weather: { outdoorC: [27, 28], humidity: [75, 85] },
    steps: [{ activity: 'walk', durationS: FOREVER }],
  },
  'first-hot-day': HOT_DAY_WALK,
  'acclimatised-hot-day': HOT_DAY_WALK,
  'old-dog-hot-room': {
    weather: { outdoorC: [32, 33], humidity: [50, 55] },
    steps: [
      { activity: 'lie', durationS: [minutes(15), minutes(30)] },
      { activity: 'sleep', durationS: [minutes(30), minutes(60)] },
    ],
  },
  'pleasant-rest': {
    weather: { outdoorC: [20, 22], humidity: [45, 55] },
    steps: [
      { activity: 'rest', durationS: [minutes(10), minutes(20)] },
      { activity: 'sleep', durationS: [minutes(20), minutes(60)] },
    ],
  },
  // One step of the air, not a climb: indoors for about 3 minutes, then on the patio.
  'step-change': {
    // The room's air; each step sets its own.
    weather: { outdoorC: [21.8, 22.2], humidity: [40, 50] },
    // It walks out (a minute) and lies down again on the patio.
    steps: [
      { activity: 'lie', durationS: [minutes(3), minutes(3)], airC: [21.8, 22.2] },
      { activity: 'walk', durationS: [minutes(1), minutes(1)], airC: [32.8, 33.2] },
      { activity: 'lie', durationS: FOREVER, airC: [32.8, 33.2] },
    ],
  },
};

const planOf = (scenario: Scenario): Plan | undefined =>
  (PLANS as Partial<Record<Scenario, Plan>>)[scenario];

/** A named scenario's dog starts step `index` of its plan. */
function enterStep(s: CollarState, plan: Plan, index: number, random: Random): void {
  const step = plan.steps[index]!;
  s.step = index;
  s.activity = step.activity;
  s.activityLeftS = between(random, ...step.durationS);
  s.activityElapsedS = 0;
  if (step.airC) s.outdoorC = s.outdoorMeanC = between(random, ...step.airC);
}

function nextActivity(state: CollarState, random: Random): Activity {
  if (state.scenario === 'hot-car') return state.activity === 'car' ? 'rest' : 'car';
  const r = random();
  switch (state.activity) {
    case 'sleep':
      return 'rest';
    case 'rest':
      if (r < 0.4) return 'walk';
      if (r < 0.6) return 'play';
      if (r < 0.9) return 'sleep';
      return 'car';
    default:
      return 'rest';
  }
}

function durationOf(activity: Activity, scenario: Scenario, random: Random): number {
  if (scenario === 'hot-car')
    return between(random, ...(activity === 'car' ? HOT_CAR_PARKED_S : HOT_CAR_SHADE_S));
  return between(random, ...DURATIONS[activity]);
}

/** The air the dog is in (°C): outdoors, or a car's cabin warming since it was parked. */
export function airTemperature(state: CollarState): number {
  if (state.activity !== 'car') return state.outdoorC;
  if (state.scenario === 'parked-car')
    return (
      state.outdoorC +
      PARKED_CAR_RISE_C * (1 - Math.exp(-state.activityElapsedS / PARKED_CAR_TIME_CONSTANT_S))
    );
  const rise = state.scenario === 'hot-car' ? CAR_RISE_C : MILD_CAR_RISE_C;
  return state.outdoorC + rise * (1 - Math.exp(-state.activityElapsedS / CAR_TIME_CONSTANT_S));
}

/** The sensor sits against the dog: it reads the air plus some body heat, more when active. */
function sensorTarget(state: CollarState): number {
  return airTemperature(state) + 2 + 3 * (state.activityLevel / 100);
}

/** Which day collar number `index` lives through; with a heatwave, some get hot. */
export function scenarioFor(index: number, heatwave: boolean): Scenario {
  if (!heatwave) return 'normal';
  // Of every six collars: one in a hot car, one on a humid hot day, two on a dry one.
  return (
    (['hot-car', 'hot-day-humid', 'hot-day-dry', 'hot-day-dry', 'normal', 'normal'] as const)[
      index % 6
    ] ?? 'normal'
  );
}

/** The day's air temperature (°C) and humidity (%) ranges of each scenario. */
const WEATHER: Record<FleetScenario, { outdoorC: [number, number]; humidity: [number, number] }> = {
  normal: { outdoorC: [15, 23], humidity: [40, 60] },
  'hot-day-dry': { outdoorC: [31, 34], humidity: [20, 32] },
  'hot-day-humid': { outdoorC: [31, 34], humidity: [60, 75] },
  'hot-car': { outdoorC: [28, 31], humidity: [40, 60] },
};

/** A named scenario's collar, at the start of its plan. */
function createPlannedCollar(scenario: Scenario, plan: Plan, random: Random): CollarState {
  const outdoorMeanC = between(random, ...plan.weather.outdoorC);
  const humidityMean = between(random, ...plan.weather.humidity);
  const state: CollarState = {
    scenario,
    activity: 'rest',
    step: 0,
    elapsedS: 0,
    activityLeftS: 0,
    activityElapsedS: 0,
    outdoorC: outdoorMeanC,
    outdoorMeanC,
    humidity: humidityMean,
    humidityMean,
    temperatureC: 0,
    temperatureRate: 0,
    heartRate: 0,
    heartRateOffset: between(random, -8, 15),
    activityLevel: 0,
    // Charged enough that no low-battery alert gets in the way of the demo.
    battery: between(random, 60, 100),
    charging: false,
    status: 'SAFE',
  };
  enterStep(state, plan, 0, random);
  state.activityLevel = ACTIVITY_TARGETS[state.activity].activityLevel;
  state.temperatureC = sensorTarget(state);
  state.heartRate = heartRateTarget(state);
  state.status = collarStatus(state);
  return state;
}

/**
 * A collar at a random point of its day, so a fresh fleet does not move in lockstep; a named
 * scenario's at the start of its plan.
 */
export function createCollar(scenario: Scenario, random: Random): CollarState {
  const plan = planOf(scenario);
  if (plan) return createPlannedCollar(scenario, plan, random);
  const weather = WEATHER[scenario as FleetScenario];
  const outdoorMeanC = between(random, ...weather.outdoorC);
  const humidityMean = between(random, ...weather.humidity);
  const activities: Activity[] =
    scenario === 'hot-car' ? ['car', 'rest'] : ['sleep', 'rest', 'rest', 'walk', 'play'];
  const activity = activities[Math.floor(random() * activities.length)] ?? 'rest';
  const duration = durationOf(activity, scenario, random);
  // Part-way through: a hot car may already be warm when the simulator starts.
  const elapsed = random() * duration * 0.6;
  const state: CollarState = {
    scenario,
    activity,
    step: 0,
    elapsedS: 0,
    activityLeftS: duration - elapsed,
    activityElapsedS: elapsed,
    outdoorC: outdoorMeanC,
    outdoorMeanC,
    humidity: humidityMean,
    humidityMean,
    temperatureC: 0,
    temperatureRate: 0,
    heartRate: 0,
    heartRateOffset: between(random, -8, 15),
    activityLevel: ACTIVITY_TARGETS[activity].activityLevel,
    battery: between(random, 25, 100),
    charging: false,
    status: 'SAFE',
  };
  state.temperatureC = sensorTarget(state);
  state.heartRate = heartRateTarget(state);
  state.status = collarStatus(state);
  return state;
}

/** A named scenario's strain builds up with this time constant (seconds). */
const STRAIN_TIME_CONSTANT_S = 300;

/**
 * Heart rate heads for the activity's rate, plus heat stress above 80 °F at the sensor, plus
 * the strain of a scenario's dog that works without a break.
 */
function heartRateTarget(state: CollarState): number {
  const tempF = (state.temperatureC * 9) / 5 + 32;
  const strainBpm = planOf(state.scenario)?.strainBpm ?? 0;
  return (
    ACTIVITY_TARGETS[state.activity].heartRate +
    state.heartRateOffset +
    1.5 * Math.max(0, tempF - 80) +
    (strainBpm === 0 ? 0 : strainBpm * (1 - Math.exp(-state.elapsedS / STRAIN_TIME_CONSTANT_S)))
  );
}

/** The owner's thresholds as the app's defaults set them (85 °F warning, 105 °F critical). */
export const DEFAULT_THRESHOLDS: Thresholds = {
  warningF: DEFAULT_PREFERENCES.temperature_threshold,
  criticalF: DEFAULT_PREFERENCES.critical_temperature_threshold,
};

function collarStatus(state: CollarState): VitalsStatus {
  return vitalsStatus(
    { temperature: state.temperatureC, humidity: state.humidity },
    DEFAULT_THRESHOLDS,
    state.status,
  );
}

/** The largest step integrated at once; longer intervals are taken in steps of this size. */
const MAX_STEP_S = 1;
/** The sensor follows its target with this time constant (seconds), critically damped. */
const SENSOR_TAU_S = 60;

/** A full charge lasts about two days of ordinary life. */
const BATTERY_DRAIN_PER_S = 100 / (48 * 3600);

function advanceOnce(s: CollarState, dt: number, random: Random): void {
  const plan = planOf(s.scenario);
  s.elapsedS += dt;
  s.activityElapsedS += dt;
  s.activityLeftS -= dt;
  if (s.activityLeftS <= 0) {
    if (plan) {
      enterStep(s, plan, (s.step + 1) % plan.steps.length, random);
    } else {
      s.activity = nextActivity(s, random);
      s.activityLeftS = durationOf(s.activity, s.scenario, random);
      s.activityElapsedS = 0;
    }
  }
  const noise = () => gaussian(random) * Math.sqrt(dt);
  // The weather drifts slowly around the day's mean (Ornstein–Uhlenbeck).
  s.outdoorC += ((s.outdoorMeanC - s.outdoorC) / 1800) * dt + 0.01 * noise();
  s.humidity = clamp(
    s.humidity + ((s.humidityMean - s.humidity) / 600) * dt + 0.05 * noise(),
    0,
    100,
  );
  if (plan) {
    // A named scenario promises its ranges: the drift stays inside them.
    s.outdoorC = clamp(s.outdoorC, ...(plan.steps[s.step]!.airC ?? plan.weather.outdoorC));
    s.humidity = clamp(s.humidity, ...plan.weather.humidity);
  }
  // A still dog's collar barely moves: in a named scenario the jitter of the sensor (down to
  // half) and of the activity scale with what the dog does, so a dog meant to lie still (activity
  // below 10) stays so, and a steady room reads steady.
  const activityTarget = ACTIVITY_TARGETS[s.activity].activityLevel;
  const movement = plan ? Math.min(1, activityTarget / 60) : 1;
  // The sensor has inertia: a critically damped pull towards its target plus a little jitter.
  const pull = (sensorTarget(s) - s.temperatureC) / (SENSOR_TAU_S * SENSOR_TAU_S);
  s.temperatureRate +=
    (pull - (2 / SENSOR_TAU_S) * s.temperatureRate) * dt +
    0.0015 * Math.max(0.5, movement) * noise();
  s.temperatureC = clamp(s.temperatureC + s.temperatureRate * dt, -40, 60);
  // Heart rate and activity follow the dog with a lag of tens of seconds.
  s.heartRate += ((heartRateTarget(s) - s.heartRate) / 20) * dt + 0.6 * noise();
  s.heartRate = clamp(s.heartRate, 40, 250);
  s.activityLevel = clamp(
    s.activityLevel + ((activityTarget - s.activityLevel) / 15) * dt + 0.8 * movement * noise(),
    0,
    100,
  );
  // About two days on a charge, faster when moving; at 8 % the owner puts it on the charger.
  if (s.charging) {
    s.battery = Math.min(100, s.battery + dt / 60);
    if (s.battery >= 100) s.charging = false;
  } else {
    s.battery = Math.max(
      0,
      s.battery - BATTERY_DRAIN_PER_S * (0.7 + 0.6 * (s.activityLevel / 100)) * dt,
    );
    if (s.battery <= 8) s.charging = true;
  }
}

/** The collar `dtSeconds` later. The state passed in is left as it was. */
export function advance(state: CollarState, dtSeconds: number, random: Random): CollarState {
  const next = { ...state };
  let left = Math.max(0, dtSeconds);
  while (left > 0) {
    const dt = Math.min(MAX_STEP_S, left);
    advanceOnce(next, dt, random);
    left -= dt;
  }
  next.status = collarStatus(next);
  return next;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The reading the collar posts (DESIGN §3 reading fields), taken at `timestampMs`. */
export function toReading(state: CollarState, timestampMs: number): ReadingInput {
  return {
    temperature: round1(state.temperatureC),
    humidity: round1(state.humidity),
    heart_rate: Math.round(state.heartRate),
    activity_level: Math.round(state.activityLevel),
    battery: Math.round(state.battery),
    status: state.status,
    timestamp: timestampMs,
  };
}

/** What a backlog covers, and the time between two of its readings. */
export const BACKLOG_DAYS = 5;
export const BACKLOG_INTERVAL_MS = 30 * 60_000;

/**
 * The weather of a scenario's past days: each day's lowest (about 03:00) and highest (about
 * 15:00) air temperature (°C) are drawn from these ranges, and humidity (%) swings the other
 * way, from its range's low end in the afternoon to its high end at night.
 */
interface PastWeather {
  lowC: [number, number];
  peakC: [number, number];
  humidity: [number, number];
}

/** The scenarios with a backlog, and their past days' weather given today's. */
const BACKLOGS: Partial<Record<Scenario, (today: CollarState) => PastWeather>> = {
  // Cool days: the dog is not used to heat.
  'first-hot-day': () => ({ lowC: [12, 14], peakC: [16, 19], humidity: [55, 75] }),
  // As hot as today (peaks of 29–32 °C around today's air, as humid), so the dog is used to it:
  // the server compares today with the hottest of the past days.
  'acclimatised-hot-day': (today) => ({
    lowC: [21, 24],
    peakC: [clamp(today.outdoorMeanC - 0.5, 29, 32), clamp(today.outdoorMeanC + 1, 29, 32)],
    humidity: [today.humidityMean - 2, today.humidityMean + 15],
  }),
};

/** The scenario's "now" is early afternoon, whatever the clock says: a hot day's hottest hours. */
const NOW_HOUR = 14;
const HOUR_MS = 3_600_000;

/**
 * What the dog does at `hour` of a past day: asleep at night, out in the morning and for its
 * usual afternoon walk (the one it is on today, in the day's hottest hours), else mostly resting.
 */
function pastActivity(hour: number, random: Random): Activity {
  if (hour < 7 || hour >= 22) return 'sleep';
  if ((hour >= 7 && hour < 8) || (hour >= 14 && hour < 16)) return 'walk';
  const r = random();
  if (r < 0.1) return 'walk';
  if (r < 0.25) return 'sleep';
  return 'rest';
}

/**
 * The readings a collar uploads before its first live one, oldest first: every 30 minutes
 * over the last 5 days, for a scenario the server must judge with its past (acclimatisation);
 * none for the others. `state` is the collar as it starts (its dog's heart rate). The times
 * are on a 30-minute grid, so a second run's backlog lands on the same times and the server
 * keeps one reading for each.
 */
export function backlogReadings(state: CollarState, nowMs: number, random: Random): ReadingInput[] {
  const backlog = BACKLOGS[state.scenario]?.(state);
  if (!backlog) return [];
  const count = (BACKLOG_DAYS * 24 * HOUR_MS) / BACKLOG_INTERVAL_MS;
  // At least a minute before now, so the first live reading is the newest.
  const newest = Math.floor((nowMs - 60_000) / BACKLOG_INTERVAL_MS) * BACKLOG_INTERVAL_MS;
  const days = new Map<number, { lowC: number; peakC: number }>();
  const readings: ReadingInput[] = [];
  let status: VitalsStatus = 'SAFE';
  for (let k = count - 1; k >= 0; k--) {
    const timestamp = newest - k * BACKLOG_INTERVAL_MS;
    const hours = NOW_HOUR + (timestamp - nowMs) / HOUR_MS;
    const day = Math.floor(hours / 24);
    const hour = hours - day * 24;
    let weather = days.get(day);
    if (!weather) {
      weather = {
        lowC: between(random, ...backlog.lowC),
        peakC: between(random, ...backlog.peakC),
      };
      days.set(day, weather);
    }
    // 0 at 03:00, 1 at 15:00.
    const warmth = (1 - Math.cos((2 * Math.PI * (hour - 3)) / 24)) / 2;
    const airC = weather.lowC + (weather.peakC - weather.lowC) * warmth;
    const [humidLow, humidHigh] = backlog.humidity;
    const humidity = clamp(
      humidHigh - (humidHigh - humidLow) * warmth + 2 * gaussian(random),
      humidLow,
      humidHigh,
    );
    const activity = pastActivity(hour, random);
    const target = ACTIVITY_TARGETS[activity];
    const activityLevel = clamp(target.activityLevel + 2 * gaussian(random), 0, 100);
    const temperatureC = airC + 2 + 3 * (activityLevel / 100) + 0.15 * gaussian(random);
    const tempF = (temperatureC * 9) / 5 + 32;
    const heartRate =
      target.heartRate +
      state.heartRateOffset +
      1.5 * Math.max(0, tempF - 80) +
      3 * gaussian(random);
    status = vitalsStatus({ temperature: temperatureC, humidity }, DEFAULT_THRESHOLDS, status);
    // On the charger every night at 22:00, then about 2 % an hour.
    const battery = 100 - 2 * ((hour - 22 + 24) % 24);
    readings.push({
      temperature: round1(temperatureC),
      humidity: round1(humidity),
      heart_rate: Math.round(clamp(heartRate, 40, 250)),
      activity_level: Math.round(activityLevel),
      battery: Math.round(battery),
      status,
      timestamp,
    });
  }
  return readings;
}
