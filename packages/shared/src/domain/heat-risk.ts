import { matchBreed } from './breeds.js';
import { EXTREME_HEAT, heatIndexF, heatIndexQuotable } from './heat-index.js';
import { celsiusToFahrenheit, fahrenheitToCelsius } from './units.js';
import { higherLevel } from './alert-engine.js';
import { VITALS_STATUSES, vitalsRank as rank, type VitalsStatus } from './vitals-status.js';

/**
 * The heat-risk model (DESIGN §3 "Heat risk"; every number is in docs/heat-risk.md with its
 * source or "judgement"). For each reading it adds up points, each point roughly doubling the
 * odds of heat-related illness (log₂ of an odds ratio where one is published), from what the
 * collar has seen lately and from the dog's profile, and answers a band, the score and the
 * reasons in plain words. Two patterns are CRITICAL whatever the score: a parked car, and
 * sustained heat at rest.
 *
 * Pure: the recent past is a small state the caller keeps per collar and hands back with the
 * next reading (riskStep), so the model costs the same per reading however long a dog has worn
 * its collar, and never reads a clock or a database.
 */

/** The same four levels as the vitals status, so the heat alert can follow the higher. */
export type RiskBand = VitalsStatus;
export const RISK_BANDS = VITALS_STATUSES;

export const HEALTH_CONDITIONS = ['airway', 'breathing', 'heart'] as const;
export type HealthCondition = (typeof HEALTH_CONDITIONS)[number];
export const SEXES = ['female', 'male'] as const;
export type Sex = (typeof SEXES)[number];

/** What the model knows of the dog. Unknown (null) is neutral: it adds nothing. */
export interface RiskProfile {
  name?: string | null;
  breed?: string | null;
  /** Years. */
  age?: number | null;
  /** Pounds, as the pet sheet takes it. */
  weightLbs?: number | null;
  sex?: Sex | null;
  /** The 9-point body condition score vets use (5 is ideal). */
  bodyCondition?: number | null;
  conditions?: readonly HealthCondition[] | null;
}

/** The parts of a reading the model reads; `at` is the reading's time (epoch ms). */
export interface RiskReading {
  at: number;
  temperature: number;
  humidity: number;
  heart_rate?: number | null;
  activity_level?: number | null;
}

/** One input's contribution: points (≈ log₂ of its odds ratio) and the words for it. */
export interface RiskFactor {
  code: string;
  points: number;
  /** "flat-faced breed (French Bulldog)": what, without the "about N×" part. */
  label: string;
}

export type RiskTrigger = 'parked-car' | 'heat-at-rest';

export interface RiskAssessment {
  band: RiskBand;
  /** The sum of the points, one decimal. */
  score: number;
  /** The top reasons in plain words, most important first (at most three). */
  reasons: string[];
  /** Every factor that added points, largest first. */
  factors: RiskFactor[];
  trigger: RiskTrigger | null;
  /**
   * The collar seems not to be on a dog (a data-quality state, not a heat level): it reports
   * neither heart rate nor movement. The band is then SAFE with no reasons: its heat is not a
   * dog's.
   */
  collarOff: boolean;
  /** This reading begins an off spell the owner should hear of (not a blink after the last). */
  collarOffNews: boolean;
  /**
   * This reading shows no sign of the dog (a collar that reports heart rate sent none, and no
   * movement): its heat is not taken as the dog's. True whenever `collarOff` is, and already
   * in the minutes before the collar is judged off.
   */
  noSign: boolean;
}

/** A minute's last collar temperature, and whether the dog was still all that minute. */
type MinuteSample = [minute: number, temperatureC: number, still: 0 | 1];

/** What the model remembers of a collar between readings (JSON on the device row). */
export interface RiskState {
  v: 2;
  /** The last reading's time (ms). */
  at: number;
  /** Activity smoothed over about 2 minutes (rest), as of the last reading that reported it… */
  calm: number | null;
  /** …which it is forgotten 2 minutes after, as everything the collar stops reporting. */
  actAt: number | null;
  /**
   * The exercise under way, from the raw activity (not a smoothed one, whose tail would keep
   * it going after the dog stopped): when it began, the last reading at exercise level, and
   * its activity, smoothed over about 5 minutes from its start. Pauses of up to 3 minutes
   * (a sniff, a lead clipped on) belong to it.
   */
  exertSince: number | null;
  lastExertAt: number | null;
  exertAct: number | null;
  /**
   * The minutes (since the epoch) of the last 20 with exercise in them, pauses of 3 minutes
   * or less between two readings at exercise level included: play in bouts with longer
   * pauses counts too (a dog does not cool in a few minutes' rest in warm air).
   */
  exertMins: number[];
  /** The last reading of an exercise that had lasted 3 minutes (a heart still recovering). */
  exercisedAt: number | null;
  /** Since when the activity smoothed over 2 minutes has been rest (< 20), and settled (< 10). */
  stillSince: number | null;
  settledSince: number | null;
  /** Heart rate smoothed over about 3 minutes, as of the last reading that reported one. */
  hr: number | null;
  hrAt: number | null;
  /** This dog's resting heart rate, learned from awake rest (≈ 1 hour of it). */
  restHr: number | null;
  /**
   * The stillness under way, as a candidate for awake rest: the sum and count of its heart
   * rates and the first one's time. Learned from once the dog moves again within 20 minutes
   * of lying still; a longer stillness (a doze, a night) is dropped.
   */
  restSum: number | null;
  restN: number | null;
  restFrom: number | null;
  hrHighSince: number | null;
  /** The last reading with a heart rate, kept across silences: a collar that reports one. */
  hrSeenAt: number | null;
  /** Since when a collar that reports heart rate has reported none and no movement at all… */
  quietSince: number | null;
  /** …since when it is judged off (not on a dog), and when its last off spell ended. */
  offSince: number | null;
  offEndedAt: number | null;
  /** The first reading with a sign of the dog after an off spell (the collar settling). */
  backOnAt: number | null;
  /**
   * Until when the parked-car pattern is not looked for: a collar put back on after a spell off
   * warms to its dog. Absent from states written before it: read as null.
   */
  carDoubtUntil: number | null;
  /**
   * The first reading of an off spell worth telling the owner of ("Collar off?"), kept while
   * the spell goes on and no batch with a present has judged it yet: a backlog's lists and
   * slices end hours ago, so the news waits for the one that ends now (decision 0023). The
   * model never reads it; ingest sets it. Absent from states written before it: read as null.
   */
  offNewsAt: number | null;
  /** Since when the heat index at the collar has been ≥ 30 °C, and ≥ 35 °C at rest. */
  warmSince: number | null;
  hotRestSince: number | null;
  /** The last 16 minutes, a sample a minute (the parked-car pattern). */
  temps: MinuteSample[];
  /** The parked-car pattern, once seen, holds while the dog stays still in that heat. */
  carPeak: number | null;
  /** The highest heat index (°C) of each of the last 15 days (UTC), oldest first. */
  days: [day: number, maxHeatIndexC: number][];
  /** The band shown, its reasons, and since when the model has judged lower. */
  held: RiskBand;
  heldReasons: string[];
  lowerSince: number | null;
}

const MIN = 60_000;
const DAY = 86_400_000;

/** Bands by score: below WARNING is SAFE. */
export const RISK_BAND_FLOORS = { WARNING: 4.5, DANGER: 6, CRITICAL: 8.5 } as const;
/** Without this much from the day itself (heat, exercise, heart rate) the band stays SAFE. */
export const EXPOSURE_FLOOR = 2;
/** A band is lowered only once the model has judged lower for this long. */
export const RISK_HOLD_MS = 5 * MIN;
/**
 * Hysteresis: a band the model shows is judged kept while the score and the day's exposure
 * are within this many points below what entering it takes (the thresholds' 1 °F rule, in
 * points). Judgement: half a point is the smallest step of any input (the heat index's steps
 * at the collar are 0.5 apart), so a reading's noise across one step (29.9 ↔ 30.1 °C) never
 * opens and closes the band again and again; a real fall of a step or more still lowers it.
 */
export const RISK_BAND_MARGIN = 0.5;

/** A collar silent this long starts its short windows afresh. */
const GAP_RESET_MS = 20 * MIN;
/** Activity and heart rate are forgotten this long after the last reading that reported them. */
const INPUT_EXPIRES_MS = 2 * MIN;
/** A collar that reported a heart rate within this long is one that reports it. */
const HR_COLLAR_MS = 7 * DAY;
/** An activity this low is no movement at all (a collar lying on a sill or a charger). */
const NO_MOVEMENT = 2;
/** A heart-rate collar with neither a heart rate nor movement this long is judged off. */
export const COLLAR_OFF_AFTER_MS = 5 * MIN;
/** An off spell this soon after the last one is the same episode for the owner. */
export const OFF_EPISODE_GAP_MS = 60 * MIN;
/** A collar back on is still off while it cools by this much in 2 minutes (°C), at most 15. */
const SETTLING_DROP = 0.4;
const SETTLING_MAX_MS = 15 * MIN;
/** The parked-car pattern is not looked for this soon after a collar is put back on… */
const BACK_ON_MS = 10 * MIN;
/**
 * …unless it was "off" for less than this: minutes without a heart rate or movement on a still
 * dog are as likely a sensor that lost the skin as a collar taken off, and a collar that never
 * left the dog has no warming-up to mistake for a car (judgement).
 */
const BRIEF_OFF_MS = 15 * MIN;
/**
 * …nor before the dog has been settled (activity smoothed over 2 minutes under
 * SETTLED_BELOW) this long: a move into a warmer place shows as a climb while the sensor
 * catches up (about 3 × its lag of up to 3 minutes), then flat.
 */
export const CAR_SETTLED_MS = 8 * MIN;
const SETTLED_BELOW = 10;
/** A silence longer than this breaks a settled spell (judgement: the car pattern itself needs
 * a sample in every minute but one of its 5). */
const SETTLED_GAP_MS = 3 * MIN;
/** The resting heart rate is learned from rest this long (awake rest: not a doze or sleep). */
const REST_LEARN_MS = [3 * MIN, 20 * MIN] as const;

/**
 * Whether a reading's band is one the model holds after the risk fell (within
 * RISK_BAND_MARGIN of its floor, or for RISK_HOLD_MS after a clear fall), not
 * what the reading itself reached: a WARNING or DANGER above what its own score makes (the
 * stored score is the reading's own; only the band and reasons are held). It never calls a
 * band held that the reading reached, but it misses two held cases: a CRITICAL band, which a
 * pattern sets whatever the score, and a band held while the day's exposure is under
 * EXPOSURE_FLOOR with a score still above the floor (a high-risk dog cooling down). Telling
 * those apart needs the device to carry whether its band is held.
 */
export function riskBandHeld(band: string | null, score: number | null): boolean {
  return (
    (band === 'WARNING' || band === 'DANGER') && score !== null && score < RISK_BAND_FLOORS[band]
  );
}

/** Heat index at the collar (°C) → points, highest first (judgement). */
const HEAT_INDEX_POINTS: readonly [atLeastC: number, points: number][] = [
  [40, 5],
  [36, 4],
  [33, 3],
  [30, 2],
  [27, 1.5],
  [24, 1],
  [20, 0.5],
];

/**
 * The exercise's activity (0–100) → points on a warm day (judgement; exercise triggers 74 %
 * of cases, on warm days), weighed by `heatWeight`.
 */
const EXERTION_POINTS: readonly [atLeast: number, points: number, words: string][] = [
  [70, 2.5, 'hard exercise'],
  [45, 2, 'exercise'],
  [30, 1, 'light exercise'],
];
/** A reading of this activity or more is exercise. */
const EXERTING_AT = 30;
/** Exercise counts once it is sustained: a few minutes of play is not heat strain. */
const SUSTAINED_MS = 10 * MIN;
/** Readings below exercise level this long end it (shorter is a pause: a sniff, a lead). */
const EXERTION_PAUSE_MS = 3 * MIN;
/**
 * Exercise also counts once it has filled more than SUSTAINED_MS of the last
 * EXERTION_WINDOW_MIN minutes, in bouts with longer pauses between them (play 6 minutes on,
 * 4 off): a dog does not cool in a few minutes' rest in warm air (judgement).
 */
const EXERTION_WINDOW_MIN = 20;
/** Exercise's points count while the dog exercised this recently (not once it stopped). */
const EXERTION_NOW_MS = 1 * MIN;
/**
 * Exercise, a heart raised by it and the dog's profile weigh nothing at this heat index (°C)
 * at the collar or below, and fully from HEAT_WEIGHT_FULL (`heatWeight`).
 */
const HEAT_WEIGHT_FROM = 27;
const HEAT_WEIGHT_FULL = 35;
const STILL_BELOW = 20;
/** A single reading of this activity or more means the dog moved that minute. */
const MOVED_AT = 25;

/** Breed, age, weight, body condition and known conditions → points. */
const BREED_POINTS = { 'very-high': 2.5, high: 1.5, brachycephalic: 1.07 } as const;
const LBS_PER_KG = 2.20462;

const round1 = (v: number) => Math.round(v * 10) / 10;
const ewma = (prev: number | null, value: number, dtMs: number, tauMs: number) =>
  prev === null ? value : prev + (value - prev) * (1 - Math.exp(-dtMs / tauMs));
const minutes = (ms: number) => Math.max(1, Math.round(ms / MIN));

/**
 * The minutes of exercise in the last EXERTION_WINDOW_MIN, with the minute of a reading at
 * exercise level (at) added, and those since the last one (lastAt) when it is no more than a
 * pause before.
 */
function exertMinutes(mins: readonly number[], lastAt: number | null, at: number): number[] {
  const now = Math.floor(at / MIN);
  const from =
    lastAt !== null && at - lastAt <= EXERTION_PAUSE_MS ? Math.floor(lastAt / MIN) + 1 : now;
  const kept = mins.filter((m) => m > now - EXERTION_WINDOW_MIN && m < from);
  for (let m = Math.max(from, now - EXERTION_WINDOW_MIN + 1); m <= now; m++) kept.push(m);
  return kept;
}

/** The heat index (°C) at the collar. */
export function heatIndexC(temperatureC: number, humidity: number): number {
  return fahrenheitToCelsius(heatIndexF(celsiusToFahrenheit(temperatureC), humidity));
}

/** "about 2×", "about 1.5×": the odds a number of points stands for. */
export function timesTheRisk(points: number): string {
  const times = 2 ** points;
  return `about ${times < 2 ? round1(times) : Math.round(times)}× the risk`;
}

export function emptyRiskState(): RiskState {
  return {
    v: 2,
    at: 0,
    calm: null,
    actAt: null,
    exertSince: null,
    lastExertAt: null,
    exertAct: null,
    exertMins: [],
    exercisedAt: null,
    stillSince: null,
    settledSince: null,
    hr: null,
    hrAt: null,
    restHr: null,
    restSum: null,
    restN: null,
    restFrom: null,
    hrHighSince: null,
    hrSeenAt: null,
    quietSince: null,
    offSince: null,
    offEndedAt: null,
    backOnAt: null,
    carDoubtUntil: null,
    offNewsAt: null,
    warmSince: null,
    hotRestSince: null,
    temps: [],
    carPeak: null,
    days: [],
    held: 'SAFE',
    heldReasons: [],
    lowerSince: null,
  };
}

/** A stored state, or a fresh one when it is missing or of another shape. */
export function parseRiskState(json: string | null | undefined): RiskState {
  if (!json) return emptyRiskState();
  let s: unknown;
  try {
    s = JSON.parse(json);
  } catch {
    return emptyRiskState();
  }
  // A state from before carDoubtUntil, exertMins or offNewsAt existed is this version's with
  // them unset.
  if (typeof s === 'object' && s !== null)
    s = { carDoubtUntil: null, exertMins: [], offNewsAt: null, ...(s as object) };
  if (isRiskState(s)) return s;
  // The first version learned the resting heart rate from sleep too, and judged an off collar
  // a still dog: only its days' heat is kept.
  const old = s as { v?: unknown; days?: unknown };
  if (old && old.v === 1 && isDays(old.days)) return { ...emptyRiskState(), days: old.days };
  return emptyRiskState();
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const numOrNull = (v: unknown) => v === null || isNum(v);
const NULLABLE_NUMBERS = [
  'calm',
  'actAt',
  'exertSince',
  'lastExertAt',
  'exertAct',
  'exercisedAt',
  'stillSince',
  'settledSince',
  'hr',
  'hrAt',
  'restHr',
  'restSum',
  'restN',
  'restFrom',
  'hrHighSince',
  'hrSeenAt',
  'quietSince',
  'offSince',
  'offEndedAt',
  'backOnAt',
  'carDoubtUntil',
  'offNewsAt',
  'warmSince',
  'hotRestSince',
  'carPeak',
  'lowerSince',
] as const;

const isDays = (v: unknown): v is RiskState['days'] =>
  Array.isArray(v) &&
  v.every((d) => Array.isArray(d) && d.length === 2 && isNum(d[0]) && isNum(d[1]));

/** Every field of the shape this version writes: anything else starts afresh, never throws. */
function isRiskState(v: unknown): v is RiskState {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return (
    s.v === 2 &&
    isNum(s.at) &&
    NULLABLE_NUMBERS.every((k) => numOrNull(s[k])) &&
    Array.isArray(s.temps) &&
    s.temps.every(
      (t) => Array.isArray(t) && t.length === 3 && isNum(t[0]) && isNum(t[1]) && isNum(t[2]),
    ) &&
    isDays(s.days) &&
    Array.isArray(s.exertMins) &&
    s.exertMins.every(isNum) &&
    (RISK_BANDS as readonly unknown[]).includes(s.held) &&
    Array.isArray(s.heldReasons) &&
    s.heldReasons.every((r) => typeof r === 'string')
  );
}

/** Whether a stored state (the device row's JSON) judges its collar off its dog. */
export const riskStateCollarOff = (json: string | null | undefined): boolean =>
  parseRiskState(json).offSince !== null;

/** A stored JSON list (a text column), or none when it is missing or not a list. */
export function parseJsonList(json: string | null | undefined): unknown[] {
  if (!json) return [];
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Stored reasons (a JSON list), or none. */
export const parseReasons = (json: string | null | undefined): string[] =>
  parseJsonList(json).filter((r): r is string => typeof r === 'string');

/** The profile's points: the same for every reading of the dog. */
export function profileFactors(p: RiskProfile): RiskFactor[] {
  const out: RiskFactor[] = [];
  const breed = matchBreed(p.breed);
  if (breed) {
    const byRisk = breed.risk ? BREED_POINTS[breed.risk] : 0;
    const bySkull = breed.skull === 'brachycephalic' ? BREED_POINTS.brachycephalic : 0;
    if (byRisk > 0 || bySkull > 0) {
      const flat = breed.skull === 'brachycephalic';
      const label = breed.risk
        ? `${flat ? 'flat-faced breed' : 'breed'} with a high published heat risk (${breed.name})`
        : `flat-faced breed (${breed.name})`;
      out.push({ code: 'breed', points: Math.max(byRisk, bySkull), label });
    }
  }
  if (p.weightLbs != null) {
    const kg = p.weightLbs / LBS_PER_KG;
    const points = kg >= 50 ? 1.77 : kg >= 30 ? 1 : kg >= 10 ? 0.5 : 0;
    // Said in lbs, as the pet's weight is everywhere else (the bands are the study's kg).
    if (points)
      out.push({ code: 'weight', points, label: `${Math.round(p.weightLbs)} lbs body weight` });
  }
  if (p.age != null) {
    const points = p.age >= 12 ? 0.81 : p.age >= 9 ? 0.7 : p.age >= 6 ? 0.58 : 0;
    if (points) out.push({ code: 'age', points, label: `${p.age} years old` });
  }
  if (p.bodyCondition != null) {
    const points = p.bodyCondition >= 8 ? 1 : p.bodyCondition >= 6 ? 0.49 : 0;
    if (points)
      out.push({
        code: 'body-condition',
        points,
        label: p.bodyCondition >= 8 ? 'carrying a lot of extra weight' : 'carrying extra weight',
      });
  }
  const conditions = new Set(p.conditions ?? []);
  const conditionPoints =
    (conditions.has('airway') ? 1.5 : 0) +
    (conditions.has('breathing') ? 1 : 0) +
    (conditions.has('heart') ? 1 : 0);
  if (conditionPoints) {
    const names = HEALTH_CONDITIONS.filter((c) => conditions.has(c));
    out.push({
      code: 'conditions',
      points: Math.min(2, conditionPoints),
      label: `known ${names.join(' and ')} condition${names.length > 1 ? 's' : ''}`,
    });
  }
  return out;
}

/**
 * Whether a reading looks like a collar off its dog: one that reports heart rate (seen within
 * 7 days) reporting none, and no movement at all.
 */
function unworn(state: RiskState, r: RiskReading): boolean {
  return (
    state.hrSeenAt !== null &&
    r.at - state.hrSeenAt <= HR_COLLAR_MS &&
    r.heart_rate == null &&
    (r.activity_level == null || r.activity_level <= NO_MOVEMENT)
  );
}

/**
 * Adds a reading's heat index to its day's maximum (any reading, a backlog's too), unless it
 * looks like a collar off its dog: a sill's or a charger's heat is not a hot day for the dog.
 */
export function recordDay(state: RiskState, reading: RiskReading): RiskState {
  if (unworn(state, reading)) return state;
  const day = Math.floor(reading.at / DAY);
  const hi = round1(heatIndexC(reading.temperature, reading.humidity));
  const days = state.days.filter(([d]) => d > day - 15);
  const i = days.findIndex(([d]) => d === day);
  if (i >= 0) days[i] = [day, Math.max(days[i]![1], hi)];
  else days.push([day, hi]);
  days.sort((a, b) => a[0] - b[0]);
  return { ...state, days: days.slice(-15) };
}

/** Moves the windows on by one reading (the reading is the collar's newest). */
function advanceState(prev: RiskState, r: RiskReading): RiskState {
  // After a long silence the short windows and the held band start afresh (what was held then
  // is not news now); the days, the resting heart rate and whether the collar is on are kept.
  const fresh = prev.at === 0 || r.at - prev.at > GAP_RESET_MS;
  const base: RiskState = fresh
    ? {
        ...emptyRiskState(),
        restHr: prev.restHr,
        days: prev.days,
        hrSeenAt: prev.hrSeenAt,
        quietSince: prev.quietSince,
        offSince: prev.offSince,
        offEndedAt: prev.offEndedAt,
        backOnAt: prev.backOnAt,
        carDoubtUntil: prev.carDoubtUntil,
        offNewsAt: prev.offNewsAt,
      }
    : prev;
  // Never earlier than the last reading: riskStep holds a collar clock set back to it.
  const s: RiskState = { ...recordDay(base, r), at: r.at };
  const dt = fresh ? 0 : r.at - prev.at;
  const hi = heatIndexC(r.temperature, r.humidity);

  // Off its dog: a heart-rate collar with neither a heart rate nor movement for 5 minutes.
  const quiet = unworn(s, r);
  s.quietSince = quiet ? (s.quietSince ?? r.at) : null;
  if (s.quietSince !== null && r.at - s.quietSince >= COLLAR_OFF_AFTER_MS)
    s.offSince ??= s.quietSince;
  else if (s.quietSince === null && s.offSince !== null) {
    // Back on the dog: off until the collar has shed the heat of where it lay (a sill's
    // sun, a charger), that is once it is no longer cooling fast, or after 15 minutes.
    s.backOnAt ??= r.at;
    const before = sampleAt(s.temps, Math.floor(r.at / MIN) - 2);
    const cooling = before !== undefined && before[1] - r.temperature >= SETTLING_DROP;
    if (!cooling || r.at - s.backOnAt >= SETTLING_MAX_MS) {
      s.carDoubtUntil = r.at - s.offSince >= BRIEF_OFF_MS ? r.at + BACK_ON_MS : null;
      s.offSince = s.backOnAt = null;
      s.offEndedAt = r.at;
    }
  }
  if (quiet) s.backOnAt = null;

  const a = r.activity_level;
  if (a != null) {
    s.calm = ewma(s.calm, a, dt, 2 * MIN);
    s.actAt = s.at;
    if (a >= EXERTING_AT) {
      s.exertMins = exertMinutes(s.exertMins, s.lastExertAt, r.at);
      s.exertAct = s.exertSince === null ? a : ewma(s.exertAct, a, dt, 5 * MIN);
      s.exertSince ??= r.at;
      s.lastExertAt = r.at;
    } else if (s.exertSince !== null) {
      if (r.at - s.lastExertAt! > EXERTION_PAUSE_MS) s.exertSince = s.exertAct = null;
      else s.exertAct = ewma(s.exertAct, a, dt, 5 * MIN);
    }
  } else if (s.actAt === null || s.at - s.actAt > INPUT_EXPIRES_MS) {
    // A collar that stopped reporting activity is no longer known to be still, or active.
    s.calm = null;
    s.exertSince = s.exertAct = null;
    s.exertMins = [];
  }
  if (s.exertSince !== null && s.lastExertAt! - s.exertSince >= 3 * MIN)
    s.exercisedAt = s.lastExertAt;
  const still = s.calm !== null && s.calm < STILL_BELOW;
  if (!still && s.restN && s.restFrom !== null) {
    // The dog moved within 20 minutes of lying still: that was awake rest, learned from.
    const mean = s.restSum! / s.restN;
    const span = Math.max(MIN, prev.at - s.restFrom);
    s.restHr = Math.min(
      REST_HR_RANGE[1],
      Math.max(REST_HR_RANGE[0], ewma(s.restHr ?? DEFAULT_REST_HR, mean, span, 60 * MIN)),
    );
  }
  s.stillSince = still ? (s.stillSince ?? r.at) : null;
  // Settled is what the collar saw: a silence of more than a few minutes may hide a move
  // (in from the garden, up onto a sofa), so a settled spell starts afresh after one.
  const unseen = dt > SETTLED_GAP_MS;
  s.settledSince =
    s.calm !== null && s.calm < SETTLED_BELOW ? (unseen ? r.at : (s.settledSince ?? r.at)) : null;
  if (!still || r.at - s.stillSince! > REST_LEARN_MS[1]) s.restSum = s.restN = s.restFrom = null;

  if (r.heart_rate != null) {
    s.hr = ewma(s.hrAt === null ? null : s.hr, r.heart_rate, dt, 3 * MIN);
    s.hrAt = s.hrSeenAt = r.at;
    // Learned only from a dog awake at rest: still for 3 to 20 minutes, then up again (a
    // longer stillness is a doze or sleep, whose heart runs about 7 % lower), not hot, not
    // within half an hour of exercise (a recovering heart is not a resting one), and not a
    // heart far above the rate known so far (a raised heart is not rest). From the default,
    // and within reason.
    const candidate =
      s.stillSince !== null &&
      r.at - s.stillSince >= REST_LEARN_MS[0] &&
      r.at - s.stillSince <= REST_LEARN_MS[1] &&
      (a ?? 100) < MOVED_AT &&
      hi < 30 &&
      (s.exercisedAt === null || s.at - s.exercisedAt > 30 * MIN) &&
      r.heart_rate < 1.4 * (s.restHr ?? DEFAULT_REST_HR);
    if (candidate) {
      s.restSum = (s.restSum ?? 0) + r.heart_rate;
      s.restN = (s.restN ?? 0) + 1;
      s.restFrom ??= r.at;
    }
  } else if (s.hrAt === null || s.at - s.hrAt > INPUT_EXPIRES_MS) {
    // A heart rate the collar stopped reporting is not the dog's now.
    s.hr = null;
    s.hrAt = null;
  }
  const restHr = s.restHr ?? DEFAULT_REST_HR;
  s.hrHighSince = s.hr !== null && s.hr >= 1.7 * restHr ? (s.hrHighSince ?? r.at) : null;

  s.warmSince = hi >= 30 ? (s.warmSince ?? r.at) : null;
  s.hotRestSince =
    still && (hi >= 35 || (s.hotRestSince !== null && hi >= 34)) ? (s.hotRestSince ?? r.at) : null;

  const minute = Math.floor(r.at / MIN);
  const last = s.temps.at(-1);
  // 1: still this minute. A reading without activity keeps the minute before's (a value lost
  // is no movement seen), for one minute at most.
  const keptStill = last !== undefined && minute - last[0] <= 1 ? last[2] : 0;
  const moved = r.activity_level == null ? keptStill : r.activity_level >= MOVED_AT ? 0 : 1;
  const temps = s.temps.filter(([m]) => m > minute - 16);
  if (last && last[0] === minute)
    temps[temps.length - 1] = [minute, r.temperature, moved && last[2] ? 1 : 0];
  else temps.push([minute, r.temperature, moved]);
  s.temps = temps;

  // A collar without its dog's heart rate (maybe off, on a sunny sill) or just put back on (a
  // collar warming to the dog) is no car. The parked car holds while the dog stays still, the
  // heat has not eased by 2 °C, and it is still climbing or at 35 °C or more: a rise that
  // levels off below 35 °C lets go.
  const doubtful = s.quietSince !== null || (s.carDoubtUntil !== null && r.at < s.carDoubtUntil);
  const climbing = r.temperature - (sampleAt(s.temps, minute - 5)?.[1] ?? r.temperature) >= 0.5;
  if (doubtful) s.carPeak = null;
  else if (
    s.carPeak !== null &&
    still &&
    r.temperature > s.carPeak - 2 &&
    (r.temperature >= 35 || climbing)
  )
    s.carPeak = Math.max(s.carPeak, r.temperature);
  else
    s.carPeak =
      s.settledSince !== null &&
      r.at - s.settledSince >= CAR_SETTLED_MS &&
      parkedCarPattern(s.temps, minute)
        ? r.temperature
        : null;
  return s;
}

/** The latest minute sample at or before `minute`. */
const sampleAt = (temps: readonly MinuteSample[], minute: number) =>
  temps.findLast(([m]) => m <= minute);

/** A learned resting heart rate is kept within this range (bpm; judgement). */
const REST_HR_RANGE = [40, 160] as const;

/** A dog's resting heart rate until its own is known (judgement: a mid-sized adult dog). */
const DEFAULT_REST_HR = 90;

/** The parked car: the window it is seen in (minutes), its least rise (°C) and start (°C). */
const CAR_WINDOW_MIN = 5;
const CAR_MIN_RISE = 1;
const CAR_MIN_START = 15;
/** Every 2 minutes of the window climb at least this (°C), the last 2 at least CAR_LAST_2MIN. */
const CAR_MIN_2MIN = 0.2;
const CAR_LAST_2MIN = 0.4;
/** The last 2 minutes keep at least this share of the steepest 2 (a lagged step slows more). */
const CAR_STEADY = 0.35;

/**
 * The parked-car pattern over the last 5 minutes: the dog still every minute, the collar at
 * 15 °C or more and up by at least 1 °C, climbing all along (every 2 minutes by 0.2 °C or
 * more) and still climbing at the end (its last 2 minutes by 0.4 °C or more, and at least
 * 0.35 × its steepest 2). A closed car gains about 1.8 °C per 5 minutes, 80 % of its rise in
 * the first 30, and faster at first when it was cooled on the drive. The caller also wants
 * the dog settled for a while first (`CAR_SETTLED_MS`): a step into a warmer place, behind
 * the sensor's lag, is the dog moving.
 */
export function parkedCarPattern(temps: readonly MinuteSample[], minute: number): boolean {
  const now = temps.at(-1);
  if (!now || now[0] !== minute) return false;
  const t: number[] = [];
  for (let k = CAR_WINDOW_MIN; k >= 0; k--) {
    const s = sampleAt(temps, minute - k);
    // A sample for every minute of the window (one missing may be taken from the minute before).
    if (!s || s[0] < minute - k - 1) return false;
    t.push(s[1]);
  }
  if (temps.some(([m, , still]) => m >= minute - CAR_WINDOW_MIN && !still)) return false;
  if (t[0]! < CAR_MIN_START || t[CAR_WINDOW_MIN]! - t[0]! < CAR_MIN_RISE) return false;
  const pieces: number[] = [];
  for (let i = 0; i + 2 <= CAR_WINDOW_MIN; i++) pieces.push(t[i + 2]! - t[i]!);
  const last = pieces.at(-1)!;
  return (
    Math.min(...pieces) >= CAR_MIN_2MIN &&
    last >= CAR_LAST_2MIN &&
    last >= CAR_STEADY * Math.max(...pieces)
  );
}

/**
 * How much exercise, a heart raised by it, and the dog's profile weigh at a heat index (°C) at
 * the collar: nothing at 27 °C or below, rising evenly to all of it at 35 °C (judgement: the
 * published risk of exertion is on warm days, and the published odds of a breed, an age or a
 * condition multiply the risk the heat brings, which at a mild collar is next to none; the
 * collar reads 2–3 °C above the air from the dog's own body, so 27 °C is air of about 24–25 °C.
 * Measured against week-long traces of ordinary walks and of play in humid heat).
 */
export function heatWeight(heatIndexCelsius: number): number {
  const w = (heatIndexCelsius - HEAT_WEIGHT_FROM) / (HEAT_WEIGHT_FULL - HEAT_WEIGHT_FROM);
  return Math.min(1, Math.max(0, w));
}

/** The words for the heat index at the collar: the number, or "extreme heat" beyond the table. */
function heatWords(temperatureC: number, humidity: number): string {
  const hi = heatIndexC(temperatureC, humidity);
  if (!heatIndexQuotable(celsiusToFahrenheit(temperatureC), humidity)) return EXTREME_HEAT;
  return `heat index ${Math.round(hi)} °C (${Math.round(celsiusToFahrenheit(hi))} °F)`;
}

/**
 * The day's factors at a heat index of `hi` (°C) at the collar: heat, exercise, heart rate,
 * acclimatisation, time in the heat.
 */
function exposureFactors(s: RiskState, r: RiskReading, hi: number): RiskFactor[] {
  const out: RiskFactor[] = [];
  const hiPoints = HEAT_INDEX_POINTS.find(([atLeast]) => hi >= atLeast)?.[1] ?? 0;
  if (hiPoints)
    out.push({
      code: 'heat-index',
      points: hiPoints,
      label: `${heatWords(r.temperature, r.humidity)} at the collar`,
    });

  const weight = heatWeight(hi);
  const exerciseNow =
    s.exertSince !== null && s.exertAct !== null && r.at - s.lastExertAt! <= EXERTION_NOW_MS;
  const lasted = exerciseNow ? s.lastExertAt! - s.exertSince! : 0;
  // Minutes of exercise within the last 20: play in bouts, its pauses too short to cool a dog.
  const now = Math.floor(r.at / MIN);
  const inWindow = exerciseNow
    ? s.exertMins.filter((m) => m > now - EXERTION_WINDOW_MIN && m <= now).length
    : 0;
  // More than 10 minutes marked is 10 minutes from the first reading to the last, as `lasted`.
  if (lasted >= SUSTAINED_MS || inWindow * MIN > SUSTAINED_MS) {
    const level = EXERTION_POINTS.find(([atLeast]) => s.exertAct! >= atLeast);
    const points = level ? round1((level[1] + (lasted >= 30 * MIN ? 0.5 : 0)) * weight) : 0;
    if (level && points > 0)
      out.push({
        code: 'exertion',
        points,
        label:
          lasted >= SUSTAINED_MS
            ? `${level[2]} for ${minutes(lasted)} minutes in the warmth`
            : `${level[2]} for ${inWindow} of the last ${EXERTION_WINDOW_MIN} minutes in the warmth`,
      });
  }

  // A heart raised by exercise weighs with the heat, as the exercise does.
  const restHr = s.restHr ?? DEFAULT_REST_HR;
  const afterExercise = s.exercisedAt !== null && r.at - s.exercisedAt <= 30 * MIN;
  const hrWeight = afterExercise || exerciseNow ? weight : 1;
  const recovering =
    s.hr !== null &&
    s.stillSince !== null &&
    r.at - s.stillSince >= 5 * MIN &&
    afterExercise &&
    s.hr >= 1.4 * restHr;
  if (recovering && round1(1.5 * hrWeight) > 0)
    out.push({
      code: 'heart-rate',
      points: round1(1.5 * hrWeight),
      label: `heart rate still ${Math.round(s.hr!)} bpm ${minutes(r.at - s.stillSince!)} minutes after exercise`,
    });
  else if (
    !recovering &&
    s.hr !== null &&
    s.hrHighSince !== null &&
    r.at - s.hrHighSince >= 10 * MIN &&
    round1(hrWeight) > 0
  )
    out.push({
      code: 'heart-rate',
      points: round1(hrWeight),
      label: `heart rate high (${Math.round(s.hr)} bpm) for ${minutes(r.at - s.hrHighSince)} minutes`,
    });

  const today = Math.floor(r.at / DAY);
  const before = s.days.filter(([d]) => d < today && d >= today - 14);
  if (before.length >= 3 && hi >= 27) {
    const hottest = Math.max(...before.map(([, h]) => h));
    if (hi >= hottest + 4)
      out.push({
        code: 'acclimatisation',
        points: 1,
        label: `hotter than any of the last ${before.length} days (not used to the heat)`,
      });
  }

  if (s.warmSince !== null && r.at - s.warmSince >= 30 * MIN)
    out.push({
      code: 'heat-duration',
      points: 1,
      label: `in the heat for ${minutes(r.at - s.warmSince)} minutes`,
    });
  return out;
}

/** The words of a factor for the owner: "flat-faced breed (Pug), about 2× the risk". */
const reasonOf = (f: RiskFactor) => `${f.label}, ${timesTheRisk(f.points)}`;

/** The band, score and reasons of a reading from the state it leaves and the profile. */
function judge(s: RiskState, r: RiskReading, profile: RiskProfile): RiskAssessment {
  if (s.offSince !== null)
    // Not a dog's heat: no band, no reasons, no trigger.
    return {
      band: 'SAFE',
      score: 0,
      reasons: [],
      factors: [],
      trigger: null,
      collarOff: true,
      collarOffNews: false,
      noSign: true,
    };
  const hi = heatIndexC(r.temperature, r.humidity);
  const exposure = exposureFactors(s, r, hi);
  // The dog's odds multiply the heat's: they weigh with it, and raise nothing at a mild collar.
  const weight = heatWeight(hi);
  const dog = profileFactors(profile)
    .map((f) => ({ ...f, points: round1(f.points * weight) }))
    .filter((f) => f.points > 0);
  const factors = [...exposure, ...dog].sort((a, b) => b.points - a.points);
  const exposurePoints = exposure.reduce((sum, f) => sum + f.points, 0);
  const score = round1(factors.reduce((sum, f) => sum + f.points, 0));
  const reasons = factors.slice(0, 3).map(reasonOf);

  let trigger: RiskTrigger | null = null;
  const name = profile.name?.trim() || 'the dog';
  if (s.carPeak !== null) {
    trigger = 'parked-car';
    reasons.unshift(
      `collar temperature climbing steadily while ${name} is still: the pattern of a parked car`,
    );
  } else if (s.hotRestSince !== null && r.at - s.hotRestSince >= 30 * MIN) {
    trigger = 'heat-at-rest';
    reasons.unshift(
      `${heatWords(r.temperature, r.humidity)} for ${minutes(r.at - s.hotRestSince)} minutes while ${name} rests`,
    );
  }
  let band: RiskBand = 'SAFE';
  if (trigger) band = 'CRITICAL';
  else {
    // Entering a band takes its floor; keeping the band shown (or a lower one) takes a little
    // less (RISK_BAND_MARGIN), so noise across a floor does not flicker the band.
    const margin = (b: RiskBand) => (rank(b) <= rank(s.held) ? RISK_BAND_MARGIN : 0);
    const reaches = (b: keyof typeof RISK_BAND_FLOORS) =>
      exposurePoints >= EXPOSURE_FLOOR - margin(b) && score >= RISK_BAND_FLOORS[b] - margin(b);
    band = reaches('CRITICAL')
      ? 'CRITICAL'
      : reaches('DANGER')
        ? 'DANGER'
        : reaches('WARNING')
          ? 'WARNING'
          : 'SAFE';
  }
  return {
    band,
    score,
    reasons: reasons.slice(0, 3),
    factors,
    trigger,
    collarOff: false,
    collarOffNews: false,
    noSign: s.quietSince !== null,
  };
}

/**
 * One reading, the collar's newest: the state after it and the assessment shown. A higher
 * band shows at once; a lower one only once the model has judged lower for 5 minutes. A
 * collar judged off shows SAFE at once (what it reads is not the dog's).
 */
export function riskStep(
  prev: RiskState,
  newest: RiskReading,
  profile: RiskProfile,
): { state: RiskState; assessment: RiskAssessment } {
  // A collar whose clock ran ahead and was set back sends readings timed before the last one
  // (the server still takes them as its present): the model's time never runs backwards.
  const reading = newest.at < prev.at ? { ...newest, at: prev.at } : newest;
  const s = advanceState(prev, reading);
  const now = judge(s, reading, profile);
  if (now.collarOff) {
    // One note to the owner per off spell: not for a collar back on only briefly.
    const news =
      prev.offSince === null &&
      (s.offEndedAt === null || s.offSince! - s.offEndedAt > OFF_EPISODE_GAP_MS);
    s.held = 'SAFE';
    s.heldReasons = [];
    s.lowerSince = null;
    return { state: s, assessment: { ...now, collarOffNews: news } };
  }
  let shown: RiskAssessment = now;
  if (rank(now.band) >= rank(s.held)) {
    s.held = now.band;
    s.heldReasons = now.reasons;
    s.lowerSince = null;
  } else {
    s.lowerSince ??= reading.at;
    if (reading.at - s.lowerSince >= RISK_HOLD_MS) {
      s.held = now.band;
      s.heldReasons = now.reasons;
      s.lowerSince = null;
    } else shown = { ...now, band: s.held, reasons: s.heldReasons };
  }
  return { state: s, assessment: shown };
}

/**
 * A reading that is not the collar's newest (a backlog): judged on its own, from the profile
 * and its own heat only, as its vitals status is.
 */
export function assessAlone(reading: RiskReading, profile: RiskProfile): RiskAssessment {
  return judge(advanceState(emptyRiskState(), reading), reading, profile);
}

/** One stored reading as the back-test reads it. */
export interface BacktestReading {
  at: number;
  status: VitalsStatus;
  risk_band: RiskBand | null;
}

export interface BacktestSide {
  /** Heat alerts that would have opened (a rise above SAFE). */
  alerts: number;
  /** Minutes spent above SAFE (a gap over 10 minutes counts as 10). */
  minutes_elevated: number;
  highest: RiskBand;
}

export interface BacktestResult {
  thresholds: BacktestSide;
  model: BacktestSide;
  model_only_alerts: number;
}

/** A back-test under way: readings are added oldest first, a page at a time. */
export class BacktestTally {
  private readonly thresholds: BacktestSide = { alerts: 0, minutes_elevated: 0, highest: 'SAFE' };
  private readonly model: BacktestSide = { alerts: 0, minutes_elevated: 0, highest: 'SAFE' };
  private modelOnly = 0;
  /** Whether the thresholds left SAFE during the model's alert in progress. */
  private thresholdsToo = false;
  private prev: { at: number; t: RiskBand; m: RiskBand } | null = null;

  add(r: BacktestReading): void {
    const t = r.status;
    const m = higherLevel(t, r.risk_band);
    const prev = this.prev;
    const dt = prev ? r.at - prev.at : 0;
    if (m !== 'SAFE' && (!prev || prev.m === 'SAFE')) this.thresholdsToo = false;
    if (t !== 'SAFE') this.thresholdsToo = true;
    if (prev && prev.m !== 'SAFE' && m === 'SAFE' && !this.thresholdsToo) this.modelOnly++;
    tally(this.thresholds, t, prev?.t ?? null, dt);
    tally(this.model, m, prev?.m ?? null, dt);
    this.prev = { at: r.at, t, m };
  }

  /**
   * How often the plain thresholds, and the thresholds with the model beside them (the
   * higher of the two, as the heat alert follows), would have alerted. `model_only_alerts`:
   * the model's alerts during which the thresholds never left SAFE.
   */
  result(): BacktestResult {
    const open = this.prev && this.prev.m !== 'SAFE' && !this.thresholdsToo ? 1 : 0;
    const whole = (s: BacktestSide) => ({ ...s, minutes_elevated: Math.round(s.minutes_elevated) });
    return {
      thresholds: whole(this.thresholds),
      model: whole(this.model),
      model_only_alerts: this.modelOnly + open,
    };
  }
}

function tally(s: BacktestSide, level: RiskBand, was: RiskBand | null, dtMs: number): void {
  if (level !== 'SAFE' && (was === null || was === 'SAFE')) s.alerts++;
  if (rank(level) > rank(s.highest)) s.highest = level;
  if (was !== null && was !== 'SAFE') s.minutes_elevated += Math.min(dtMs, 10 * MIN) / MIN;
}
