// What a virtual collar measures, as pure functions of its state, the time passed and a
// seeded random source: no clock, no I/O, so the same seed replays the same dog.
import {
  DEFAULT_PREFERENCES,
  vitalsStatus,
  type ReadingInput,
  type Thresholds,
  type VitalsStatus,
} from '@pawguard/shared';

/** What the dog is doing; each sets where heart rate, activity and body heat head. */
export type Activity = 'sleep' | 'rest' | 'walk' | 'play' | 'car';

/**
 * The day a collar lives through. `normal`: a mild day, SAFE. `hot-day`: a heatwave
 * outdoors, dry (WARNING) or humid (the heat index reaches DANGER). `hot-car`: a heatwave
 * with spells in a parked car whose cabin slowly heats up to CRITICAL, then out in the shade.
 */
export type Scenario = 'normal' | 'hot-day-dry' | 'hot-day-humid' | 'hot-car';

export interface CollarState {
  scenario: Scenario;
  activity: Activity;
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
function gaussian(random: Random): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const between = (random: Random, min: number, max: number) => min + random() * (max - min);
const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

/** Where heart rate (bpm) and activity (%) head for each activity, before heat stress. */
const ACTIVITY_TARGETS: Record<Activity, { heartRate: number; activityLevel: number }> = {
  sleep: { heartRate: 62, activityLevel: 3 },
  rest: { heartRate: 85, activityLevel: 12 },
  walk: { heartRate: 118, activityLevel: 55 },
  play: { heartRate: 150, activityLevel: 88 },
  car: { heartRate: 100, activityLevel: 8 },
};

/** How long each activity lasts (seconds). A car spell is short unless it is the scenario. */
const DURATIONS: Record<Activity, [number, number]> = {
  sleep: [20 * 60, 60 * 60],
  rest: [5 * 60, 20 * 60],
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
const WEATHER: Record<Scenario, { outdoorC: [number, number]; humidity: [number, number] }> = {
  normal: { outdoorC: [15, 23], humidity: [40, 60] },
  'hot-day-dry': { outdoorC: [31, 34], humidity: [20, 32] },
  'hot-day-humid': { outdoorC: [31, 34], humidity: [60, 75] },
  'hot-car': { outdoorC: [28, 31], humidity: [40, 60] },
};

/** A collar at a random point of its day, so a fresh fleet does not move in lockstep. */
export function createCollar(scenario: Scenario, random: Random): CollarState {
  const weather = WEATHER[scenario];
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

/** Heart rate heads for the activity's rate, plus heat stress above 80 °F at the sensor. */
function heartRateTarget(state: CollarState): number {
  const tempF = (state.temperatureC * 9) / 5 + 32;
  return (
    ACTIVITY_TARGETS[state.activity].heartRate +
    state.heartRateOffset +
    1.5 * Math.max(0, tempF - 80)
  );
}

const DEFAULT_THRESHOLDS: Thresholds = {
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
  s.activityElapsedS += dt;
  s.activityLeftS -= dt;
  if (s.activityLeftS <= 0) {
    s.activity = nextActivity(s, random);
    s.activityLeftS = durationOf(s.activity, s.scenario, random);
    s.activityElapsedS = 0;
  }
  const noise = () => gaussian(random) * Math.sqrt(dt);
  // The weather drifts slowly around the day's mean (Ornstein–Uhlenbeck).
  s.outdoorC += ((s.outdoorMeanC - s.outdoorC) / 1800) * dt + 0.01 * noise();
  s.humidity = clamp(
    s.humidity + ((s.humidityMean - s.humidity) / 600) * dt + 0.05 * noise(),
    0,
    100,
  );
  // The sensor has inertia: a critically damped pull towards its target plus a little jitter.
  const pull = (sensorTarget(s) - s.temperatureC) / (SENSOR_TAU_S * SENSOR_TAU_S);
  s.temperatureRate += (pull - (2 / SENSOR_TAU_S) * s.temperatureRate) * dt + 0.0015 * noise();
  s.temperatureC = clamp(s.temperatureC + s.temperatureRate * dt, -40, 60);
  // Heart rate and activity follow the dog with a lag of tens of seconds.
  s.heartRate += ((heartRateTarget(s) - s.heartRate) / 20) * dt + 0.6 * noise();
  s.heartRate = clamp(s.heartRate, 40, 250);
  const activityTarget = ACTIVITY_TARGETS[s.activity].activityLevel;
  s.activityLevel = clamp(
    s.activityLevel + ((activityTarget - s.activityLevel) / 15) * dt + 0.8 * noise(),
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
