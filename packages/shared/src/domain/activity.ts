/**
 * A dog's activity from its collar's minute rollups (docs/activity.md, decision 0043): how a
 * minute is classed, how walks are found, how hours are summed into days in the owner's zone,
 * the goal suggested from the dog's profile, streaks, and the weekly insights. Pure: no I/O.
 * Every number here is in docs/activity.md with its source, or marked there as judgement.
 */
import { matchBreed } from './breeds.js';
import { heatIndexC } from './heat-risk.js';
import { wallClock, zonedTimeToUtc } from './time-zone.js';
import { VITALS_STATUSES, type VitalsStatus } from './vitals-status.js';

/** A minute whose average activity_level (0–100) is at least this is active (judgement). */
export const ACTIVE_MIN_LEVEL = 30;
/** …and at least this, vigorous (counted inside active; judgement). */
export const VIGOROUS_MIN_LEVEL = 60;
/** A minute below this is still (rest or sleep); between still and active is light. */
export const STILL_MAX_LEVEL = 10;
/** Local night: still minutes in hours starting from 21:00 to before 07:00 are sleep. */
export const NIGHT_FROM_HOUR = 21;
export const NIGHT_TO_HOUR = 7;
/** A walk: at least this many active minutes… */
export const WALK_MIN_ACTIVE_MINUTES = 10;
/** …with at most this many non-active minutes in a row inside it. */
export const WALK_MAX_GAP_MINUTES = 2;
/** Walk detection looks this far back before the minutes it re-examines. */
export const WALK_LOOKBACK_MS = 3 * 60 * 60_000;
/** A day (or today) is hot when the collar's heat index reached this (°C). */
export const HOT_HEAT_INDEX_C = 27;
/** Days the collar reported fewer minutes than this are not judged by the streak. */
export const STREAK_MIN_WORN_MINUTES = 120;
export const HEAT_ADVICE = 'Hot today: keep walks under 20 minutes, before 9:00 or after 19:00';
export const NOT_A_DIAGNOSIS = 'This is not a diagnosis. If you are worried, ask your vet.';
/** Insight flags: activity down by at least this share against the baseline… */
export const ACTIVITY_DOWN_SHARE = 0.3;
/** …or resting heart rate up by at least this share… */
export const RESTING_HR_UP_SHARE = 0.15;
/** …on each of this many last days of the week. */
export const FLAG_DAYS = 3;
/** A baseline needs at least this many judged days of its 28. */
export const BASELINE_MIN_DAYS = 7;
export const BASELINE_DAYS = 28;
export const WEEK_DAYS = 7;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export type MinuteClass = 'vigorous' | 'active' | 'light' | 'still' | 'unknown';

/** The class of a minute from its average activity_level (null: the collar sent none). */
export function classifyMinute(avgActivity: number | null): MinuteClass {
  if (avgActivity === null || !Number.isFinite(avgActivity)) return 'unknown';
  if (avgActivity >= VIGOROUS_MIN_LEVEL) return 'vigorous';
  if (avgActivity >= ACTIVE_MIN_LEVEL) return 'active';
  if (avgActivity < STILL_MAX_LEVEL) return 'still';
  return 'light';
}

const isActive = (c: MinuteClass) => c === 'active' || c === 'vigorous';

/** What the activity job reads of one minute rollup. */
export interface ActivityMinute {
  /** The minute's start (UTC ms). */
  at: number;
  /** Readings in it. */
  count: number;
  /** Average activity_level, null when no reading carried one. */
  activity: number | null;
  /** Average heart rate, null when none. */
  heartRateSum: number;
  heartRateCount: number;
  /** Highest temperature (°C) and humidity (%) of the minute, null when unknown. */
  temperatureMax: number | null;
  humidityMax: number | null;
  /** Highest level of the minute, 0 SAFE … 3 CRITICAL. */
  levelMax: number;
}

/** One hour of one collar, summed from its minutes: what the activity_hours table keeps. */
export interface ActivityHour {
  /** The hour's start (UTC ms). */
  at: number;
  /** Readings of the minutes summed (to tell when the hour has changed since). */
  sourceCount: number;
  active: number;
  vigorous: number;
  heat: number;
  still: number;
  worn: number;
  /** Heart rate of still minutes: sum and count of readings (resting heart rate). */
  stillHrSum: number;
  stillHrCount: number;
  /** Minutes at each level, SAFE … CRITICAL. */
  levelMinutes: [number, number, number, number];
  maxHeatIndex: number | null;
  maxLevel: number;
}

/** A walk found in minutes. */
export interface DetectedWalk {
  start: number;
  /** From its first active minute to the end of its last. */
  minutes: number;
  activeMinutes: number;
  peakHeatIndex: number | null;
  peakLevel: number;
}

/** The heat index of a minute (°C) from its highest temperature and humidity. */
export function minuteHeatIndex(m: ActivityMinute): number | null {
  if (m.temperatureMax === null || m.humidityMax === null) return null;
  return Math.round(heatIndexC(m.temperatureMax, m.humidityMax) * 10) / 10;
}

const greater = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

export function emptyHour(at: number): ActivityHour {
  return {
    at,
    sourceCount: 0,
    active: 0,
    vigorous: 0,
    heat: 0,
    still: 0,
    worn: 0,
    stillHrSum: 0,
    stillHrCount: 0,
    levelMinutes: [0, 0, 0, 0],
    maxHeatIndex: null,
    maxLevel: 0,
  };
}

/** Activity at or below this (0–100) is no movement at all: the heat-risk model's line. */
const NO_MOVEMENT = 2;

/**
 * A minute of a collar off its dog (on its charger, on a windowsill): a collar that reports
 * heart rate reporting none, and no movement. As the heat-risk model judges a reading
 * (heat-risk.ts `unworn`): its heat is not the dog's, nor is its stillness rest or sleep.
 */
export function collarOffMinute(m: ActivityMinute, reportsHeartRate: boolean): boolean {
  return (
    reportsHeartRate &&
    m.count > 0 &&
    m.heartRateCount === 0 &&
    (m.activity === null || m.activity <= NO_MOVEMENT)
  );
}

/**
 * Minutes summed into the hours they fall in. An active minute above SAFE counts as heat, never
 * as active (nor vigorous); a minute with any reading is worn, unless the collar was off its dog
 * (`reportsHeartRate`: the collar reported a heart rate within the last 7 days; collarOffMinute),
 * which counts for nothing but the hour's readings.
 */
export function foldMinutes(
  minutes: readonly ActivityMinute[],
  { reportsHeartRate = false }: { reportsHeartRate?: boolean } = {},
): Map<number, ActivityHour> {
  const hours = new Map<number, ActivityHour>();
  for (const m of minutes) {
    const at = Math.floor(m.at / HOUR_MS) * HOUR_MS;
    let h = hours.get(at);
    if (!h) hours.set(at, (h = emptyHour(at)));
    h.sourceCount += m.count;
    if (m.count === 0 || collarOffMinute(m, reportsHeartRate)) continue;
    h.worn++;
    const level = Math.min(3, Math.max(0, m.levelMax));
    h.levelMinutes[level] = h.levelMinutes[level]! + 1;
    h.maxLevel = Math.max(h.maxLevel, level);
    h.maxHeatIndex = greater(h.maxHeatIndex, minuteHeatIndex(m));
    const c = classifyMinute(m.activity);
    if (isActive(c)) {
      if (level > 0) h.heat++;
      else {
        h.active++;
        if (c === 'vigorous') h.vigorous++;
      }
    } else if (c === 'still') {
      h.still++;
      h.stillHrSum += m.heartRateSum;
      h.stillHrCount += m.heartRateCount;
    }
  }
  return hours;
}

/**
 * Walks in minutes (any order): bouts of at least 10 active minutes (above SAFE or not), with
 * at most 2 non-active or missing minutes in a row inside. A bout still open at `until` (the
 * first minute not yet complete) is a walk once it has its 10 minutes: it grows on the next pass.
 */
export function detectWalks(minutes: readonly ActivityMinute[]): DetectedWalk[] {
  const active = [...minutes]
    .filter((m) => m.count > 0 && isActive(classifyMinute(m.activity)))
    .sort((a, b) => a.at - b.at);
  const walks: DetectedWalk[] = [];
  let bout: ActivityMinute[] = [];
  const close = () => {
    if (bout.length >= WALK_MIN_ACTIVE_MINUTES) {
      const first = bout[0]!;
      const last = bout.at(-1)!;
      walks.push({
        start: first.at,
        minutes: Math.round((last.at - first.at) / MINUTE_MS) + 1,
        activeMinutes: bout.length,
        peakHeatIndex: bout.reduce<number | null>((p, m) => greater(p, minuteHeatIndex(m)), null),
        peakLevel: Math.max(...bout.map((m) => Math.min(3, Math.max(0, m.levelMax)))),
      });
    }
    bout = [];
  };
  for (const m of active) {
    const prev = bout.at(-1);
    if (prev && m.at - prev.at > (WALK_MAX_GAP_MINUTES + 1) * MINUTE_MS) close();
    bout.push(m);
  }
  close();
  return walks;
}

/** A local date, 'YYYY-MM-DD'. */
export type LocalDate = string;
const two = (n: number) => String(n).padStart(2, '0');

/** The local date and hour at `ms` in `zone`. */
export function localDateHour(ms: number, zone: string): { date: LocalDate; hour: number } {
  const w = wallClock(ms, zone);
  return { date: `${w.year}-${two(w.month)}-${two(w.day)}`, hour: w.hour };
}

/** The `count` local dates ending with the one `now` falls in, oldest first. */
export function lastLocalDates(now: number, zone: string, count: number): LocalDate[] {
  const w = wallClock(now, zone);
  const out: LocalDate[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(w.year, w.month - 1, w.day - i));
    out.push(`${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`);
  }
  return out;
}

/** The UTC instant a local date begins in `zone`. */
export function localDateStart(date: LocalDate, zone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return zonedTimeToUtc(zone, y, m, d, 0, 0);
}

/**
 * The UTC hours whose start falls in these local dates, [from, to): from an hour before the
 * first date's midnight (zones with a 30- or 45-minute offset are cut at the hour) to an hour
 * after the last's end. Callers keep the hours `localDateHour` puts in one of the dates.
 */
export function hourSpan(dates: readonly LocalDate[], zone: string): { from: number; to: number } {
  const first = localDateStart(dates[0]!, zone);
  const [y, m, d] = dates.at(-1)!.split('-').map(Number) as [number, number, number];
  const end = zonedTimeToUtc(zone, y, m, d + 1, 0, 0);
  return {
    from: Math.floor(first / HOUR_MS) * HOUR_MS - HOUR_MS,
    to: Math.ceil(end / HOUR_MS) * HOUR_MS + HOUR_MS,
  };
}

const isNight = (hour: number) => hour >= NIGHT_FROM_HOUR || hour < NIGHT_TO_HOUR;

/** One local day summed from its hours. */
export interface DayTotals {
  date: LocalDate;
  active: number;
  vigorous: number;
  heat: number;
  rest: number;
  sleep: number;
  worn: number;
  /** Heart rate of still minutes in day hours (the resting heart rate): sum and count. */
  restingHrSum: number;
  restingHrCount: number;
  levelMinutes: [number, number, number, number];
  maxHeatIndex: number | null;
  maxLevel: number;
}

function emptyDay(date: LocalDate): DayTotals {
  return {
    date,
    active: 0,
    vigorous: 0,
    heat: 0,
    rest: 0,
    sleep: 0,
    worn: 0,
    restingHrSum: 0,
    restingHrCount: 0,
    levelMinutes: [0, 0, 0, 0],
    maxHeatIndex: null,
    maxLevel: 0,
  };
}

/**
 * Where each of these consecutive local dates begins (UTC ms), and one more: where the day after
 * the last begins. A day is tried as 24 hours after the one before (one formatting call to check
 * it), else found by zonedTimeToUtc: a few hundred microseconds for 90 days, where formatting
 * each hour's time would cost tens of milliseconds.
 */
export function dayStarts(dates: readonly LocalDate[], zone: string): number[] {
  const next = (date: LocalDate) => {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    const n = new Date(Date.UTC(y, m - 1, d + 1));
    return `${n.getUTCFullYear()}-${two(n.getUTCMonth() + 1)}-${two(n.getUTCDate())}`;
  };
  const starts = [localDateStart(dates[0]!, zone)];
  let date = dates[0]!;
  for (let i = 0; i < dates.length; i++) {
    date = next(date);
    const guess = starts[i]! + 24 * HOUR_MS;
    const w = wallClock(guess, zone);
    const reads = `${w.year}-${two(w.month)}-${two(w.day)}`;
    starts.push(
      reads === date && w.hour === 0 && w.minute === 0 ? guess : localDateStart(date, zone),
    );
  }
  return starts;
}

/**
 * Hours summed into these local dates: each hour goes to the date its start falls on in `zone`
 * (a day of a change to or from summer time has 23 or 25 of them). Still minutes of night hours
 * are sleep, of day hours rest.
 */
export function sumDays(
  hours: readonly ActivityHour[],
  dates: readonly LocalDate[],
  zone: string,
  starts: readonly number[] = dayStarts(dates, zone),
): DayTotals[] {
  const days = dates.map(emptyDay);
  for (const h of hours) {
    const i = dateIndex(starts, h.at);
    if (i < 0) continue;
    const day = days[i]!;
    // A day of 24 hours has its local hours in order from its start; another (a change of
    // summer time) asks the zone.
    const hour =
      starts[i + 1]! - starts[i]! === 24 * HOUR_MS
        ? Math.floor((h.at - starts[i]!) / HOUR_MS)
        : localDateHour(h.at, zone).hour;
    day.active += h.active;
    day.vigorous += h.vigorous;
    day.heat += h.heat;
    day.worn += h.worn;
    if (isNight(hour)) day.sleep += h.still;
    else {
      day.rest += h.still;
      day.restingHrSum += h.stillHrSum;
      day.restingHrCount += h.stillHrCount;
    }
    for (let l = 0; l < 4; l++) day.levelMinutes[l] = day.levelMinutes[l]! + h.levelMinutes[l]!;
    day.maxHeatIndex = greater(day.maxHeatIndex, h.maxHeatIndex);
    day.maxLevel = Math.max(day.maxLevel, h.maxLevel);
  }
  return days;
}

/** The index of the day `at` falls in, by the days' starts (dayStarts), or -1 outside them. */
export function dateIndex(starts: readonly number[], at: number): number {
  if (at < starts[0]! || at >= starts.at(-1)!) return -1;
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A day was hot: its heat index reached 27 °C, or the dog was above SAFE in it. */
export const dayWasHot = (d: Pick<DayTotals, 'maxHeatIndex' | 'maxLevel'>) =>
  (d.maxHeatIndex !== null && d.maxHeatIndex >= HOT_HEAT_INDEX_C) || d.maxLevel > 0;

/** Goal met, heat day (hot and not met: neither counts nor breaks a streak). */
export function judgeDay(
  d: DayTotals,
  goal: number,
): { met: boolean; heatDay: boolean; judged: boolean } {
  const met = d.active >= goal;
  const heatDay = !met && dayWasHot(d);
  return { met, heatDay, judged: d.worn >= STREAK_MIN_WORN_MINUTES };
}

/**
 * Streaks of days the goal was met, oldest first in `days`, the last being today: a heat day, a
 * day the collar was hardly worn (under 120 minutes) and today while not yet met neither count
 * nor break one.
 */
export function streaks(days: readonly { met: boolean; heatDay: boolean; worn: number }[]): {
  current: number;
  best: number;
} {
  let run = 0;
  let best = 0;
  days.forEach((d, i) => {
    const today = i === days.length - 1;
    if (d.met) {
      run++;
      best = Math.max(best, run);
      return;
    }
    if (d.heatDay || d.worn < STREAK_MIN_WORN_MINUTES || today) return;
    run = 0;
  });
  return { current: run, best };
}

/** Today's heat: the collar's own highest heat index today and the dog's level now. */
export function heatToday(
  peakHeatIndex: number | null,
  level: VitalsStatus | null,
): { hot: boolean; advice: string | null } {
  const hot =
    (peakHeatIndex !== null && peakHeatIndex >= HOT_HEAT_INDEX_C) ||
    (level !== null && level !== 'SAFE');
  return { hot, advice: hot ? HEAT_ADVICE : null };
}

export const levelName = (rank: number): VitalsStatus =>
  VITALS_STATUSES[Math.min(3, Math.max(0, rank))]!;

/* ---------------------------------------------------------------------------------------- */
/* Goal suggestion                                                                           */

export type BreedGroup =
  'working' | 'sporting' | 'herding' | 'hound' | 'terrier' | 'toy' | 'non-sporting';

/** Breed groups of the breeds breeds.ts knows (the American Kennel Club's groups). */
const GROUPS: Record<string, BreedGroup> = {
  Affenpinscher: 'toy',
  'Afghan Hound': 'hound',
  Akita: 'working',
  'Alaskan Malamute': 'working',
  'American Bulldog': 'working',
  'Australian Shepherd': 'herding',
  'Basset Hound': 'hound',
  Beagle: 'hound',
  'Bernese Mountain Dog': 'working',
  'Bichon Frise': 'non-sporting',
  'Border Collie': 'herding',
  'Border Terrier': 'terrier',
  Borzoi: 'hound',
  'Boston Terrier': 'non-sporting',
  Boxer: 'working',
  'Brussels Griffon': 'toy',
  Bulldog: 'non-sporting',
  Bullmastiff: 'working',
  'Cairn Terrier': 'terrier',
  'Cavalier King Charles Spaniel': 'toy',
  Chihuahua: 'toy',
  'Chow Chow': 'non-sporting',
  'Cocker Spaniel': 'sporting',
  Dachshund: 'hound',
  Dalmatian: 'non-sporting',
  Dobermann: 'working',
  'Dogue de Bordeaux': 'working',
  'English Springer Spaniel': 'sporting',
  'French Bulldog': 'non-sporting',
  'German Shepherd': 'herding',
  'Golden Retriever': 'sporting',
  'Great Dane': 'working',
  Greyhound: 'hound',
  'Italian Greyhound': 'toy',
  'Jack Russell Terrier': 'terrier',
  'Japanese Chin': 'toy',
  'King Charles Spaniel': 'toy',
  'Labrador Retriever': 'sporting',
  'Lhasa Apso': 'non-sporting',
  Maltese: 'toy',
  Mastiff: 'working',
  'Miniature Schnauzer': 'terrier',
  Newfoundland: 'working',
  Pekingese: 'toy',
  Pomeranian: 'toy',
  Poodle: 'non-sporting',
  Pug: 'toy',
  Rottweiler: 'working',
  'Rough Collie': 'herding',
  'Saint Bernard': 'working',
  Saluki: 'hound',
  'Shar Pei': 'non-sporting',
  'Shih Tzu': 'toy',
  'Siberian Husky': 'working',
  'Staffordshire Bull Terrier': 'terrier',
  'West Highland White Terrier': 'terrier',
  Whippet: 'hound',
  'Yorkshire Terrier': 'toy',
};

/** Giant breeds (seniors from 6 years): these, or any dog of at least 100 lbs (judgement). */
const GIANT = new Set([
  'Bernese Mountain Dog',
  'Dogue de Bordeaux',
  'Great Dane',
  'Mastiff',
  'Bullmastiff',
  'Newfoundland',
  'Saint Bernard',
]);
export const GIANT_WEIGHT_LBS = 100;

/** Minutes a day by group (judgement within the Kennel Club's exercise bands). */
export const GROUP_MINUTES: Record<BreedGroup, number> = {
  working: 90,
  sporting: 90,
  herding: 90,
  hound: 60,
  terrier: 60,
  'non-sporting': 60,
  toy: 40,
};
export const UNKNOWN_BREED_MINUTES = 60;
export const FLAT_FACED_CAP = 40;
/** The Kennel Club's rule of thumb: 5 minutes of exercise per month of age. */
export const PUPPY_MINUTES_PER_MONTH = 5;
/** A puppy's age is known in whole years: under 1 year is taken as 6 months (judgement). */
export const PUPPY_MONTHS_ASSUMED = 6;
export const SENIOR_AGE = 8;
export const GIANT_SENIOR_AGE = 6;
export const SENIOR_FACTOR = 0.75;
export const HEART_FACTOR = 0.5;
export const AIRWAY_CAP = 30;
export const OVERWEIGHT_BODY_CONDITION = 7;
export const OVERWEIGHT_EXTRA = 15;
export const SUGGESTION_MIN = 5;
export const SUGGESTION_MAX = 300;

export interface GoalProfile {
  breed: string | null;
  age: number | null;
  weight: number | null;
  body_condition: number | null;
  health_conditions: readonly string[];
}

/** The goal PawGuard suggests (minutes of activity a day, a multiple of 5) and why. */
export function suggestGoal(p: GoalProfile): { minutes: number; reasons: string[] } {
  const breed = matchBreed(p.breed);
  const reasons: string[] = [];
  let minutes: number;
  const group = breed ? GROUPS[breed.name] : undefined;
  if (breed && group) {
    minutes = GROUP_MINUTES[group];
    reasons.push(`${breed.name} (${group} group): ${minutes} minutes a day.`);
  } else {
    minutes = UNKNOWN_BREED_MINUTES;
    reasons.push(`Breed not known: ${minutes} minutes a day, the middle of the range.`);
  }
  const giant =
    (breed !== null && GIANT.has(breed.name)) ||
    (p.weight !== null && p.weight >= GIANT_WEIGHT_LBS);
  if (p.age !== null && p.age < 1) {
    minutes = PUPPY_MINUTES_PER_MONTH * PUPPY_MONTHS_ASSUMED;
    reasons.push(
      `A puppy: ${PUPPY_MINUTES_PER_MONTH} minutes per month of age (taken as ${PUPPY_MONTHS_ASSUMED} months), ${minutes} minutes.`,
    );
  } else if (p.age !== null && p.age >= (giant ? GIANT_SENIOR_AGE : SENIOR_AGE)) {
    minutes *= SENIOR_FACTOR;
    reasons.push(
      `A senior at ${p.age} years${giant ? ' (a giant breed)' : ''}: three quarters of that.`,
    );
  }
  if (p.body_condition !== null && p.body_condition >= OVERWEIGHT_BODY_CONDITION) {
    minutes += OVERWEIGHT_EXTRA;
    reasons.push(
      `Body condition ${p.body_condition} of 9 (overweight): ${OVERWEIGHT_EXTRA} minutes more.`,
    );
  }
  if (p.health_conditions.includes('heart')) {
    minutes *= HEART_FACTOR;
    reasons.push('A heart condition: half of that.');
  }
  if (breed?.skull === 'brachycephalic' && minutes > FLAT_FACED_CAP) {
    minutes = FLAT_FACED_CAP;
    reasons.push(`A flat-faced breed: at most ${FLAT_FACED_CAP} minutes.`);
  }
  if (
    (p.health_conditions.includes('airway') || p.health_conditions.includes('breathing')) &&
    minutes > AIRWAY_CAP
  ) {
    minutes = AIRWAY_CAP;
    reasons.push(`An airway or breathing condition: at most ${AIRWAY_CAP} minutes.`);
  }
  minutes = Math.min(SUGGESTION_MAX, Math.max(SUGGESTION_MIN, Math.round(minutes / 5) * 5));
  return { minutes, reasons };
}

/* ---------------------------------------------------------------------------------------- */
/* Insights                                                                                  */

export interface InsightDay {
  date: LocalDate;
  /** Active minutes of any level (active + heat): the dog's own activity. */
  moving: number;
  worn: number;
  restingHr: number | null;
  met: boolean;
  heatDay: boolean;
  levelMinutes: [number, number, number, number];
}

export interface InsightsResult {
  insights: {
    kind: 'activity' | 'resting_heart_rate' | 'heat' | 'goal';
    text: string;
    numbers: Record<string, number | null>;
  }[];
  flags: {
    kind: 'activity_down' | 'resting_heart_rate_up';
    text: string;
    evidence: Record<string, number | null>;
    note: string;
  }[];
}

const judged = (d: InsightDay) => d.worn >= STREAK_MIN_WORN_MINUTES;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
const pct = (now: number, base: number) => Math.round(((now - base) / base) * 100);

/**
 * The week's insights: `days` are the 28 baseline days then the 7 of the week, oldest first
 * (35 in all). Each text names the numbers it came from; flags add the evidence and the note.
 */
export function weeklyInsights(name: string, days: readonly InsightDay[]): InsightsResult {
  const baseline = days.slice(0, days.length - WEEK_DAYS);
  const week = days.slice(-WEEK_DAYS);
  const out: InsightsResult = { insights: [], flags: [] };

  // Activity against the dog's own baseline.
  const weekMoving = mean(week.filter(judged).map((d) => d.moving));
  const baseDays = baseline.filter(judged);
  const baseMoving =
    baseDays.length >= BASELINE_MIN_DAYS ? mean(baseDays.map((d) => d.moving)) : null;
  const activityNumbers = {
    week_avg_minutes: round1(weekMoving),
    baseline_minutes: round1(baseMoving),
    baseline_days: baseDays.length,
  };
  if (weekMoving === null)
    out.insights.push({
      kind: 'activity',
      text: `${name}'s collar was worn too little this week to sum up activity.`,
      numbers: activityNumbers,
    });
  else if (baseMoving === null || baseMoving === 0)
    out.insights.push({
      kind: 'activity',
      text: `${name} averaged ${Math.round(weekMoving)} active minutes a day this week; a baseline needs ${BASELINE_MIN_DAYS} days of the 4 weeks before (${baseDays.length} so far).`,
      numbers: activityNumbers,
    });
  else {
    const change = pct(weekMoving, baseMoving);
    out.insights.push({
      kind: 'activity',
      text: `${name} averaged ${Math.round(weekMoving)} active minutes a day this week, against ${Math.round(baseMoving)} over the 4 weeks before (${change >= 0 ? '+' : ''}${change} %).`,
      numbers: { ...activityNumbers, change_percent: change },
    });
  }

  // Resting heart rate.
  const weekHr = mean(week.flatMap((d) => (d.restingHr === null ? [] : [d.restingHr])));
  const baseHrDays = baseline.flatMap((d) => (d.restingHr === null ? [] : [d.restingHr]));
  const baseHr = baseHrDays.length >= BASELINE_MIN_DAYS ? mean(baseHrDays) : null;
  const hrNumbers = {
    week_resting_bpm: round1(weekHr),
    baseline_resting_bpm: round1(baseHr),
  };
  if (weekHr === null)
    out.insights.push({
      kind: 'resting_heart_rate',
      text: `No resting heart rate this week: the collar reported none while ${name} rested.`,
      numbers: hrNumbers,
    });
  else if (baseHr === null)
    out.insights.push({
      kind: 'resting_heart_rate',
      text: `${name}'s resting heart rate averaged ${Math.round(weekHr)} bpm this week; not enough days before it to compare.`,
      numbers: hrNumbers,
    });
  else {
    const change = pct(weekHr, baseHr);
    out.insights.push({
      kind: 'resting_heart_rate',
      text: `${name}'s resting heart rate averaged ${Math.round(weekHr)} bpm this week, against ${Math.round(baseHr)} bpm over the 4 weeks before (${change >= 0 ? '+' : ''}${change} %).`,
      numbers: { ...hrNumbers, change_percent: change },
    });
  }

  // Heat exposure.
  const lm = [0, 1, 2, 3].map((i) => week.reduce((s, d) => s + d.levelMinutes[i]!, 0));
  const above = lm[1]! + lm[2]! + lm[3]!;
  out.insights.push({
    kind: 'heat',
    text:
      above === 0
        ? `${name} spent no time above Safe this week.`
        : `${name} spent ${above} minutes above Safe this week: ${lm[1]} at Warning, ${lm[2]} at Danger, ${lm[3]} at Critical.`,
    numbers: {
      safe_minutes: lm[0]!,
      warning_minutes: lm[1]!,
      danger_minutes: lm[2]!,
      critical_minutes: lm[3]!,
    },
  });

  // Goal days met.
  // Of the days worn long enough to judge: a goal under those minutes can be met on a day
  // worn less, which must not read "met on 7 of 6 days".
  const judgedDays = week.filter(judged).length;
  const met = week.filter((d) => d.met && judged(d)).length;
  const heatDays = week.filter((d) => d.heatDay).length;
  out.insights.push({
    kind: 'goal',
    text: `Goal met on ${met} of ${judgedDays} days the collar was worn this week${heatDays ? ` (${heatDays} hot ${heatDays === 1 ? 'day' : 'days'} kept in)` : ''}.`,
    numbers: { days_met: met, days_worn: judgedDays, heat_days: heatDays },
  });

  // Flags: each of the last 3 days of the week, worn, against the baseline.
  const last = week.slice(-FLAG_DAYS);
  // A heat day is a day the dog was kept in: less activity then is no sign of anything.
  if (baseMoving !== null && baseMoving > 0 && last.every((d) => judged(d) && !d.heatDay)) {
    // In whole per cent, so that exactly 30 % down is down (90 × 0.7 is 62.99… in floating point).
    const keptPercent = 100 - Math.round(ACTIVITY_DOWN_SHARE * 100);
    if (last.every((d) => d.moving * 100 <= baseMoving * keptPercent)) {
      const worst = Math.max(...last.map((d) => d.moving));
      const down = Math.round(((baseMoving - worst) / baseMoving) * 100);
      out.flags.push({
        kind: 'activity_down',
        text: `${name}'s activity has been at least ${down} % below the usual ${Math.round(baseMoving)} minutes a day for ${FLAG_DAYS} days (${last.map((d) => d.moving).join(', ')} minutes).`,
        evidence: {
          baseline_minutes: round1(baseMoving),
          ...Object.fromEntries(last.map((d, i) => [`day_${i + 1}_minutes`, d.moving])),
          threshold_percent: ACTIVITY_DOWN_SHARE * 100,
        },
        note: NOT_A_DIAGNOSIS,
      });
    }
  }
  if (baseHr !== null && last.every((d) => d.restingHr !== null)) {
    const risenPercent = 100 + Math.round(RESTING_HR_UP_SHARE * 100);
    if (last.every((d) => d.restingHr! * 100 >= baseHr * risenPercent)) {
      const least = Math.min(...last.map((d) => d.restingHr!));
      const up = Math.round(((least - baseHr) / baseHr) * 100);
      out.flags.push({
        kind: 'resting_heart_rate_up',
        text: `${name}'s resting heart rate has been at least ${up} % above the usual ${Math.round(baseHr)} bpm for ${FLAG_DAYS} days (${last.map((d) => Math.round(d.restingHr!)).join(', ')} bpm).`,
        evidence: {
          baseline_resting_bpm: round1(baseHr),
          ...Object.fromEntries(last.map((d, i) => [`day_${i + 1}_bpm`, round1(d.restingHr)])),
          threshold_percent: RESTING_HR_UP_SHARE * 100,
        },
        note: NOT_A_DIAGNOSIS,
      });
    }
  }
  return out;
}
