// The days before now of a new collar's dog (`--history-days`, `npm run demo`): ordinary life,
// a reading a minute, from the week generator (walks, play, rest, nights, the collar on its
// charger now and then), so that activity, goals and the health dashboard have days to show.
import { wallClock, zonedTimeToUtc } from '@pawguard/shared';
import type { SimReading } from './life.js';
import { DOG_PROFILES, PROFILE_KEYS, generateWeek } from './week.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Kept this far inside the server's limit on a reading's age… */
const OLDEST_MARGIN_MS = 10 * MINUTE_MS;
/**
 * …and ending over an hour before now: the server tells a collar's own news (collar off, low
 * battery) of its present only, and an upload that ends over an hour ago has none (decision
 * 0023). The live collars that follow start their own day, so the history's last charger
 * session or low battery, told at the start, would be contradicted by every card at once.
 */
const NEWEST_GAP_MS = 65 * MINUTE_MS;

/**
 * `days` days of a dog's ordinary life ending an hour before `now`, oldest first:
 * the n-th collar lives the n-th of the week generator's dogs (in turn), on mild days. Its days
 * begin at midnight in `timeZone` (the owner's), so walks and nights fall at their local
 * hours; a change of daylight saving time within them shifts what follows by its hour
 * (judgement: the generator's days are 24 hours long).
 */
export function historyReadings(
  n: number,
  days: number,
  now: number,
  seed: number,
  timeZone = 'UTC',
): SimReading[] {
  if (days <= 0) return [];
  const oldest = now - days * DAY_MS + OLDEST_MARGIN_MS;
  const newest = now - NEWEST_GAP_MS;
  // Midnight, in the owner's zone, of the day the oldest reading falls on.
  const { year, month, day } = wallClock(oldest, timeZone);
  const start = zonedTimeToUtc(timeZone, year, month, day, 0);
  const week = generateWeek({
    profile: DOG_PROFILES[PROFILE_KEYS[n % PROFILE_KEYS.length]!],
    kind: 'mild',
    seed: seed + n * 104_729,
    start,
    days: Math.ceil((newest - start) / DAY_MS),
  });
  return week.minutes
    .map((m) => m.reading)
    .filter((r): r is SimReading => r !== null && r.timestamp >= oldest && r.timestamp <= newest);
}
