import { wallClock, zonedTimeToUtc } from '@pawguard/shared';

/**
 * Absolute times on screen (DESIGN §3 "Display"): in the account's time zone, in the browser's
 * language. Every clock time or date a screen shows goes through here, by way of
 * `useDisplayUnits()`; relative times ('2m ago') need no zone.
 */

/** A time as the API or a chart gives it: an ISO string or epoch milliseconds. */
export type Instant = string | number;

const formats = new Map<string, Intl.DateTimeFormat>();

/** An Intl formatter for `options` in `timeZone` (undefined: the browser's), kept for reuse. */
function formatter(
  options: Intl.DateTimeFormatOptions,
  timeZone: string | undefined,
): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    } catch {
      // A zone this browser does not know: its own zone rather than nothing.
      f = new Intl.DateTimeFormat(undefined, options);
    }
    if (formats.size > 500) formats.clear();
    formats.set(key, f);
  }
  return f;
}

/** `value` in `timeZone` as `options` ask, or '—' when it is no time. */
export function formatInZone(
  value: Instant | null | undefined,
  timeZone: string | null | undefined,
  options: Intl.DateTimeFormatOptions,
): string {
  if (value === null || value === undefined || value === '') return '—';
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(ms)) return '—';
  return formatter(options, timeZone ?? undefined).format(ms);
}

/** The time of day: '14:05' or '2:05 PM' as the browser's language writes it. */
export const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
/** The time of day with seconds, for a clock that ticks ('Last updated'). */
export const TIME_SECONDS: Intl.DateTimeFormatOptions = { ...TIME, second: '2-digit' };
/** A date and time: 'Jul 1, 2026, 10:05 AM'. */
export const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
/** A date: 'Jul 1, 2026'. */
export const DATE: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
};

/**
 * The note a list of times carries when they are not in the browser's zone (an owner
 * travelling): 'Times in Europe/Berlin (CEST)'; null when the zones agree.
 */
export function timeZoneNote(
  timeZone: string | null | undefined,
  browserZone: string | null | undefined,
  now = Date.now(),
): string | null {
  if (!timeZone || !browserZone || timeZone === browserZone) return null;
  const short = formatter({ timeZoneName: 'short' }, timeZone)
    .formatToParts(now)
    .find((p) => p.type === 'timeZoneName')?.value;
  return short && short !== timeZone ? `Times in ${timeZone} (${short})` : `Times in ${timeZone}`;
}

/**
 * Round times in `timeZone` across [from, to] for a time axis: every `stepMinutes` of the hour
 * (10), every `stepHours` of the day (4), or every midnight. By the zone's calendar, so days
 * stay at midnight across a change to or from summer time.
 */
export function zonedTicks(
  from: number,
  to: number,
  step: { minutes: number } | { hours: number } | 'day',
  timeZone: string,
): number[] {
  const w = wallClock(from, timeZone);
  const ticks: number[] = [];
  if (step === 'day') {
    for (let day = w.day; ; day++) {
      const t = zonedTimeToUtc(timeZone, w.year, w.month, day, 0);
      if (t > to) break;
      if (t >= from) ticks.push(t);
    }
    return ticks;
  }
  const stepMs = 'minutes' in step ? step.minutes * 60_000 : step.hours * 3_600_000;
  const start =
    'minutes' in step
      ? zonedTimeToUtc(
          timeZone,
          w.year,
          w.month,
          w.day,
          w.hour,
          Math.floor(w.minute / step.minutes) * step.minutes,
        )
      : zonedTimeToUtc(
          timeZone,
          w.year,
          w.month,
          w.day,
          Math.floor(w.hour / step.hours) * step.hours,
        );
  for (let t = start; t <= to; t += stepMs) if (t >= from) ticks.push(t);
  return ticks;
}
