/**
 * Time zones (DESIGN §3 "Display"): an owner's zone is an IANA name taken from the browser;
 * mails name times in it and the daily digest goes at 08:00 there. The zone rules come from
 * the platform's Intl (the IANA database Node and the browsers ship); nothing here keeps a
 * table of its own.
 */

/** A time zone's name is at most this long (the longest IANA names are about 30). */
export const TIME_ZONE_MAX_LENGTH = 64;
const NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The canonical IANA name for `name` ('america/new_york' → 'America/New_York', 'UTC'), or null
 * when it is not a time zone this platform knows. Offsets ('+05:00') are not names: refused.
 */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > TIME_ZONE_MAX_LENGTH || !NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();
function partsIn(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormat.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (partsFormat.size > 500) partsFormat.clear();
    partsFormat.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and time at `ms` in `timeZone`. */
export function wallClock(
  ms: number,
  timeZone: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const p: Record<string, number> = {};
  for (const { type, value } of partsIn(timeZone).formatToParts(ms))
    if (type !== 'literal') p[type] = Number(value);
  return {
    year: p.year!,
    month: p.month!,
    day: p.day!,
    hour: p.hour!,
    minute: p.minute!,
    second: p.second!,
  };
}

/** How far `timeZone` is ahead of UTC at `ms`, in ms (New York in summer: −4 h). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the wall clock in `timeZone` reads this date and time (`day` may run over or
 * under the month, as Date.UTC allows). A time skipped by a change to summer time is taken
 * after the change.
 */
export function zonedTimeToUtc(
  timeZone: string,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute = 0,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  return second;
}

const stampFormat = new Map<string, Intl.DateTimeFormat>();

/**
 * A time as mail gives it, in the owner's zone with its abbreviation: '2026-07-01 10:05 EDT'
 * ('… UTC' when the zone is unknown). Where the platform has no abbreviation for a zone it
 * gives the offset ('GMT+2').
 */
export function formatZonedTime(iso: string, timeZone: string | null | undefined): string {
  const zone = timeZone ?? 'UTC';
  const ms = Date.parse(iso);
  const w = wallClock(ms, zone);
  let f = stampFormat.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    if (stampFormat.size > 500) stampFormat.clear();
    stampFormat.set(zone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? zone;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)} ${name}`;
}
