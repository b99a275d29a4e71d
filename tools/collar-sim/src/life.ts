// How a dog's day turns into collar readings, a reading a minute: the weather outdoors, the room
// indoors, a parked car, and what the collar on (or off) the dog measures in each. Pure and
// seeded: the same plan, days and seed give the same readings. The week planner (week.ts) and
// the dangerous episodes (episodes.ts) say what the dog does; this file only renders it.
//
// Nothing here reads PawGuard's thresholds or its heat-risk model: the numbers come from how
// dogs and collars behave (each is explained where it is set), so the traces can measure the
// model rather than echo it.
import type { DogInput, HealthCondition } from '@pawguard/shared';
import { between, clamp, gaussian, seededRandom, type Random } from './vitals.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** What the dog is doing. `still`: awake and lying still somewhere it cannot leave (a car). */
export type Behaviour =
  'sleep' | 'nap' | 'rest' | 'potter' | 'meal' | 'walk' | 'play' | 'ride' | 'still';
/** Where the dog (and, when worn, its collar) is. */
export type Place = 'indoors' | 'outdoors' | 'car';
/** Where the collar is: on the dog, on its charger, or left on a sunny windowsill. */
export type CollarWhere = 'worn' | 'charger' | 'windowsill';

/** A stretch of the dog's life: from `start` to `end` (epoch ms, end excluded). */
export interface Segment {
  start: number;
  end: number;
  behaviour: Behaviour;
  place: Place;
  collar: CollarWhere;
  /**
   * The air around the dog (°C) when it is not the day's room or outdoors: a parked car's
   * cabin, a closed hot room. The time is epoch ms.
   */
  airC?: (at: number) => number;
  /** That air's dew point (°C); the day's when omitted. */
  dewPointC?: number;
}

/** One day's weather: its low and high (°C), dew point (°C) and sunshine (0 overcast – 1 clear). */
export interface DayWeather {
  /** Midnight UTC of the day (epoch ms); the traces keep local time = UTC. */
  day: number;
  minC: number;
  maxC: number;
  dewPointC: number;
  sunshine: number;
}

/** A dog as the app knows it (the pet sheet's fields) and as its body behaves. */
export interface DogProfile {
  key: string;
  /** The pet as an owner enters it: POST /api/dogs takes it as it is. */
  pet: Required<Pick<DogInput, 'name' | 'breed' | 'age' | 'weight' | 'sex' | 'body_condition'>> & {
    health_conditions: HealthCondition[];
  };
  /** In a few words, for tables. */
  label: string;
  /** Heart rate (bpm) asleep, resting awake, walking, and at play, in comfortable air. */
  heartRate: { sleep: number; rest: number; walk: number; play: number };
  /**
   * Beats per minute per °C of heat index above 26 °C at rest (a dog pants and its heart works
   * harder to shed heat; more for a flat-faced breed or a weak heart). 1.5 times that at
   * exercise, and at most 45 bpm in all.
   */
  heatHeartRate: number;
  /** How much warmer than the air the collar reads on the resting dog (°C): fur and neck. */
  collarWarmthC: number;
  /** Walks a day [min, max] and how long each lasts (minutes). */
  walksPerDay: [number, number];
  walkMinutes: [number, number];
  /** Play bursts a day [min, max], each 3–15 minutes. */
  playsPerDay: [number, number];
  /** How long the collar's battery lasts on the dog (hours); it charges in about 2 hours. */
  batteryHours: number;
}

/** What a collar sends: one reading. A field it failed to measure is left out. */
export interface SimReading {
  /** Epoch ms. */
  timestamp: number;
  /** °C at the collar. */
  temperature: number;
  /** % relative humidity at the collar. */
  humidity: number;
  heart_rate?: number;
  activity_level?: number;
  battery: number;
}

/** One minute of a trace: what happened (the truth) and what the collar sent (or nothing). */
export interface TraceMinute {
  at: number;
  behaviour: Behaviour;
  place: Place;
  collar: CollarWhere;
  /** The air around the collar (°C), before the collar's own warmth and lag. */
  airC: number;
  /** The outdoor air (°C) at that minute. */
  outdoorC: number;
  /** Null: the collar sent nothing that minute (out of reach, a radio hiccup). */
  reading: SimReading | null;
}

export const intBetween = (random: Random, min: number, max: number) =>
  Math.floor(between(random, min, max + 1));
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * Relative humidity (%) of air at `tempC` holding the moisture of a dew point (Magnus formula):
 * with the day's moisture nearly constant, humidity is high at dawn and drops in the afternoon.
 */
export function relativeHumidity(tempC: number, dewPointC: number): number {
  const magnus = (t: number) => Math.exp((17.625 * t) / (243.04 + t));
  return clamp((100 * magnus(dewPointC)) / magnus(tempC), 1, 100);
}

/** The low comes near sunrise (05:30), the high mid-afternoon (15:30). */
const LOW_HOUR = 5.5;
const HIGH_HOUR = 15.5;

/** The outdoor air (°C) at `at`, from the days' lows and highs (a smooth daily cycle). */
export function outdoorC(days: readonly DayWeather[], at: number): number {
  const i = dayIndex(days, at);
  const d = days[i]!;
  const hour = (at - d.day) / HOUR_MS;
  if (hour >= LOW_HOUR && hour <= HIGH_HOUR) {
    // Rising from today's low to today's high.
    const f = (hour - LOW_HOUR) / (HIGH_HOUR - LOW_HOUR);
    return d.minC + (d.maxC - d.minC) * (1 - Math.cos(Math.PI * f)) * 0.5;
  }
  // Falling from a high to the next low: after 15:30 towards tomorrow's low, before 05:30
  // from yesterday's high.
  const from = hour > HIGH_HOUR ? d : (days[i - 1] ?? d);
  const to = hour > HIGH_HOUR ? (days[i + 1] ?? d) : d;
  const sinceHigh = hour > HIGH_HOUR ? hour - HIGH_HOUR : hour + 24 - HIGH_HOUR;
  const f = sinceHigh / (24 - HIGH_HOUR + LOW_HOUR);
  return to.minC + (from.maxC - to.minC) * (1 + Math.cos(Math.PI * f)) * 0.5;
}

function dayIndex(days: readonly DayWeather[], at: number): number {
  const i = Math.floor((at - days[0]!.day) / DAY_MS);
  return clamp(i, 0, days.length - 1);
}

export function weatherAt(days: readonly DayWeather[], at: number): DayWeather {
  return days[dayIndex(days, at)]!;
}

/** How strongly the sun shines (0–1) at `at`: up from 06:00 to 20:00, highest at 13:00. */
export function sunAt(days: readonly DayWeather[], at: number): number {
  const d = weatherAt(days, at);
  const hour = (at - d.day) / HOUR_MS;
  if (hour <= 6 || hour >= 20) return 0;
  return d.sunshine * Math.sin((Math.PI * (hour - 6)) / 14);
}

/**
 * A room of a house without air conditioning (°C): about 21 °C on a day averaging 18 °C
 * outdoors, half a degree more per degree of warmer days, following the afternoon's heat a
 * little, three hours late (walls).
 */
export function roomC(days: readonly DayWeather[], at: number): number {
  const d = weatherAt(days, at);
  const mean = (d.minC + d.maxC) / 2;
  const lagged = outdoorC(days, at - 3 * HOUR_MS);
  return clamp(21 + 0.45 * (mean - 18) + 0.15 * (lagged - mean), 18, 31);
}

/** Where activity (0–100) sits for each behaviour: [mean, spread]. */
const ACTIVITY: Record<Behaviour, [number, number]> = {
  sleep: [1, 1.5],
  nap: [2, 2],
  rest: [6, 4],
  potter: [18, 8],
  meal: [24, 8],
  walk: [52, 12],
  play: [80, 10],
  ride: [6, 3],
  still: [4, 3],
};

/** How much the collar's sensor lags the air it is in: a first-order lag of about 3 minutes. */
const SENSOR_TAU_MIN = 3;
/** Heart rate follows the body within a minute going up and about three coming down. */
const HR_TAU_UP_MIN = 1;
const HR_TAU_DOWN_MIN = 3;

/** Chances per minute that the collar fails to measure a field (motion spoils the heart rate). */
const MISSING_HEART_RATE_AT_REST = 0.01;
const MISSING_HEART_RATE_MOVING = 0.05;
const MISSING_ACTIVITY = 0.005;

export interface RenderOptions {
  profile: DogProfile;
  days: readonly DayWeather[];
  /** Back to back, in time order, from the first minute of the trace to its end. */
  segments: readonly Segment[];
  seed: number;
  /** Stretches with no readings (connectivity), as [start, end) epoch ms. */
  gaps?: readonly [number, number][];
  /** Battery at the start (%). */
  battery?: number;
}

/** Renders a plan a minute at a time into what happened and what the collar sent. */
export function render(opts: RenderOptions): TraceMinute[] {
  const { profile, days, segments } = opts;
  const random = seededRandom(opts.seed ^ 0x5eed);
  const out: TraceMinute[] = [];
  let sensorC: number | null = null;
  let hr: number | null = null;
  let battery = opts.battery ?? 90;
  let gapIndex = 0;
  const gaps = opts.gaps ?? [];
  for (const seg of segments) {
    for (let at = seg.start; at < seg.end; at += MINUTE_MS) {
      const outdoor = outdoorC(days, at);
      const weather = weatherAt(days, at);
      const sun = sunAt(days, at);
      const indoorDew = weather.dewPointC + 1; // breath, cooking, showers
      let airC: number;
      let dewPointC: number;
      if (seg.airC) {
        airC = seg.airC(at);
        dewPointC = seg.dewPointC ?? indoorDew;
      } else if (seg.place === 'outdoors') {
        airC = outdoor;
        dewPointC = weather.dewPointC;
      } else {
        airC = roomC(days, at);
        dewPointC = seg.dewPointC ?? indoorDew;
      }

      // What the collar's sensor heads for.
      let targetC: number;
      if (seg.collar === 'worn') {
        // Curled up asleep the collar is buried in warm fur; on the move air flows past it.
        const warmth =
          seg.behaviour === 'walk' || seg.behaviour === 'play'
            ? profile.collarWarmthC * 0.55
            : seg.behaviour === 'sleep' || seg.behaviour === 'nap'
              ? profile.collarWarmthC * 1.15
              : profile.collarWarmthC;
        // Out in the sun the collar takes some of it (often in shade on a walk).
        const solar = seg.place === 'outdoors' ? 3 * sun : 0;
        targetC = airC + warmth + solar;
      } else if (seg.collar === 'charger') {
        targetC = airC + 0.8; // the charging battery warms it a little
      } else {
        // Behind glass in full sun a dark collar heats well above the room, more as the sun
        // climbs and the sill warms (about 20 minutes).
        const sinceOff = (at - collarOffSince(segments, seg, at)) / MINUTE_MS;
        targetC = airC + 16 * sun * (1 - Math.exp(-sinceOff / 20));
      }
      if (sensorC === null) sensorC = targetC;
      sensorC += (targetC - sensorC) * (1 - Math.exp(-1 / SENSOR_TAU_MIN));

      // The body: heart rate from what the dog does and the heat it is in.
      const worn = seg.collar === 'worn';
      const moving = seg.behaviour === 'walk' || seg.behaviour === 'play';
      const base =
        seg.behaviour === 'sleep' || seg.behaviour === 'nap'
          ? profile.heartRate.sleep
          : seg.behaviour === 'walk'
            ? profile.heartRate.walk
            : seg.behaviour === 'play'
              ? profile.heartRate.play
              : seg.behaviour === 'potter' || seg.behaviour === 'meal'
                ? (profile.heartRate.rest + profile.heartRate.walk) / 2
                : profile.heartRate.rest;
      const feltC = airC + (seg.place === 'outdoors' ? 4 * sun : 0);
      // Capped: a heart can only speed up so far for heat.
      const heatBpm = Math.min(
        45,
        profile.heatHeartRate *
          (moving ? 1.5 : 1) *
          Math.max(0, apparentC(feltC, relativeHumidity(airC, dewPointC)) - 26),
      );
      const hrTarget = base + heatBpm;
      if (hr === null) hr = hrTarget;
      const tau = hrTarget > hr ? HR_TAU_UP_MIN : HR_TAU_DOWN_MIN;
      hr += (hrTarget - hr) * (1 - Math.exp(-1 / tau));

      // The battery drains on the dog and charges on the charger (about 2 hours from empty).
      if (seg.collar === 'charger') battery = Math.min(100, battery + 50 / 60);
      else battery = Math.max(0, battery - 100 / (profile.batteryHours * 60));

      const [actMean, actSpread] = ACTIVITY[seg.behaviour];
      // Panting in the heat moves the collar a little.
      const panting = worn && !moving ? Math.max(0, (airC - 27) * 1.2) : 0;
      const activity = worn
        ? clamp(Math.round(actMean + panting + gaussian(random) * actSpread), 0, 100)
        : 0;

      while (gapIndex < gaps.length && gaps[gapIndex]![1] <= at) gapIndex++;
      const inGap = gapIndex < gaps.length && gaps[gapIndex]![0] <= at;
      let reading: SimReading | null = null;
      // A radio hiccup now and then loses a single reading too.
      if (!inGap && random() >= 0.003) {
        const humidity = relativeHumidity(sensorC, dewPointC) + gaussian(random) * 1.5;
        reading = {
          timestamp: at,
          temperature: round1(sensorC + gaussian(random) * 0.1),
          humidity: Math.round(clamp(humidity, 1, 100)),
          battery: Math.round(battery),
        };
        const hrMissing = moving ? MISSING_HEART_RATE_MOVING : MISSING_HEART_RATE_AT_REST;
        if (worn && random() >= hrMissing)
          reading.heart_rate = Math.round(clamp(hr + gaussian(random) * 3, 30, 280));
        if (random() >= MISSING_ACTIVITY) reading.activity_level = activity;
      }
      out.push({
        at,
        behaviour: seg.behaviour,
        place: seg.place,
        collar: seg.collar,
        airC: round1(airC),
        outdoorC: round1(outdoor),
        reading,
      });
    }
  }
  return out;
}

/** When the collar came off the dog, for a collar that is off at `at`. */
function collarOffSince(segments: readonly Segment[], seg: Segment, at: number): number {
  let since = seg.start;
  for (let i = segments.indexOf(seg) - 1; i >= 0; i--) {
    const s = segments[i]!;
    if (s.collar !== seg.collar) break;
    since = s.start;
  }
  return Math.min(since, at);
}

/**
 * The temperature the body feels (°C): the Steadman apparent temperature's simple form, used
 * only to scale the dog's heart rate with humid heat (not the app's heat index).
 */
function apparentC(tempC: number, humidity: number): number {
  const vapourHpa = (humidity / 100) * 6.105 * Math.exp((17.27 * tempC) / (237.7 + tempC));
  return tempC + 0.33 * vapourHpa - 4;
}

/** The readings a trace sent, oldest first. */
export const readingsOf = (trace: readonly TraceMinute[]): SimReading[] =>
  trace.flatMap((m) => (m.reading ? [m.reading] : []));
