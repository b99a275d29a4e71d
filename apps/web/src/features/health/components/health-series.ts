import type { ActivityDay, Alert, Walk } from '@pawguard/shared';

/** The dog's levels, mildest first: the order heat exposure is stacked and listed in. */
export const LEVELS = ['SAFE', 'WARNING', 'DANGER', 'CRITICAL'] as const;

const dayFormats = {
  short: new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', timeZone: 'UTC' }),
  long: new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
  full: new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }),
};

/**
 * A day as the API names it (YYYY-MM-DD, already the owner's local date) in words: 'Mon 3'
 * over a week, 'Jul 3' over longer ranges, 'Mon, Jul 3' in full. Formatted at UTC midnight,
 * so the browser's own zone cannot move it to another date.
 */
export function dayLabel(date: string, style: keyof typeof dayFormats): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? date : dayFormats[style].format(ms);
}

/** One day of the charts. */
export type DayPoint = {
  date: string;
  label: string;
  /** Active minutes that were not vigorous, and the vigorous ones: stacked, they are the day's active minutes. */
  moderate: number;
  vigorous: number;
  /** Active minutes above Safe: shown apart, never counted toward the goal. */
  heat: number;
  goal: number;
  met: boolean;
  heatDay: boolean;
  restHours: number;
  sleepHours: number;
  restingHeartRate: number | null;
  SAFE: number;
  WARNING: number;
  DANGER: number;
  CRITICAL: number;
  worn: number;
};

const hours = (minutes: number) => Math.round((minutes / 60) * 10) / 10;

export function toDayPoints(days: readonly ActivityDay[]): DayPoint[] {
  const style = days.length <= 7 ? 'short' : 'long';
  return days.map((d) => ({
    date: d.date,
    label: dayLabel(d.date, style),
    moderate: Math.max(0, d.active_minutes - d.vigorous_minutes),
    vigorous: d.vigorous_minutes,
    heat: d.heat_minutes,
    goal: d.goal_minutes,
    met: d.met,
    heatDay: d.heat_day,
    restHours: hours(d.rest_minutes),
    sleepHours: hours(d.sleep_minutes),
    restingHeartRate: d.resting_heart_rate === null ? null : Math.round(d.resting_heart_rate),
    ...d.level_minutes,
    worn: d.worn_minutes,
  }));
}

/** Whether the collar reported at all over these days (else the page says so, and no charts). */
export const hasReadings = (days: readonly ActivityDay[]) => days.some((d) => d.worn_minutes > 0);

const average = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/** The figures each chart is summed up by, in words a screen reader reads before the chart. */
export function rangeSummary(days: readonly ActivityDay[]) {
  const worn = days.filter((d) => d.worn_minutes > 0);
  const heartRates = worn.flatMap((d) =>
    d.resting_heart_rate === null ? [] : [d.resting_heart_rate],
  );
  const levelTotals = Object.fromEntries(
    LEVELS.map((level) => [level, days.reduce((sum, d) => sum + d.level_minutes[level], 0)]),
  ) as Record<(typeof LEVELS)[number], number>;
  return {
    wornDays: worn.length,
    metDays: days.filter((d) => d.met).length,
    heatDays: days.filter((d) => d.heat_day).length,
    averageActive: average(worn.map((d) => d.active_minutes)),
    heatMinutes: days.reduce((sum, d) => sum + d.heat_minutes, 0),
    averageRest: average(worn.map((d) => d.rest_minutes)),
    averageSleep: average(worn.map((d) => d.sleep_minutes)),
    heartRate: {
      average: average(heartRates),
      first: heartRates[0] ?? null,
      last: heartRates.at(-1) ?? null,
    },
    levelTotals,
  };
}

/** Every walk of these days, newest first, with the day it was on. */
export function walksNewestFirst(days: readonly ActivityDay[]): (Walk & { date: string })[] {
  return days
    .flatMap((d) => d.walks.map((w) => ({ ...w, date: d.date })))
    .sort((a, b) => Date.parse(b.start) - Date.parse(a.start));
}

/** The dog's alerts opened in the last `days` days (newest first, as the API lists them). */
export function alertsInRange(
  alerts: readonly Alert[],
  dogId: string,
  days: number,
  now: number,
): Alert[] {
  const since = now - days * 86_400_000;
  return alerts.filter((a) => a.dog_id === dogId && Date.parse(a.opened_at) >= since);
}

/** '1 h 5 min', '45 min'. */
export function formatMinutes(minutes: number): string {
  const m = Math.round(minutes);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest === 0 ? `${h} h` : `${h} h ${rest} min`;
}
