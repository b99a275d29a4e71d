import { HISTORY_RANGES, type History, type HistoryRange } from '../schemas/reading.js';

/** The range History opens on when nothing better is known (and the spec's usual view). */
export const DEFAULT_HISTORY_RANGE: HistoryRange = '24h';

/**
 * The range a collar's History opens on, when the address names none: the shortest of the
 * spec's ranges that holds its readings, so a new collar's first minutes fill the chart
 * instead of a sliver at its edge.
 *
 * - readings in the last 24 hours, all of them within the last hour: '1h';
 * - readings in the last 24 hours, some older than an hour: '24h';
 * - none in the last 24 hours but a latest reading within 7 days: '7d';
 * - no readings at all, or the day's history unknown (loading or failed): '24h'.
 *
 * `day` is the collar's '24h' history (its buckets start at their first reading's bucket);
 * `latestReadingAt` its latest reading's time (the device's `vitals_recorded_at`).
 */
export function openingHistoryRange(
  day: Pick<History, 'buckets'> | undefined,
  latestReadingAt: string | null,
  now: number,
): HistoryRange {
  if (!day) return DEFAULT_HISTORY_RANGE;
  const first = day.buckets.find((b) => b.count > 0);
  if (first) return Date.parse(first.t) >= now - HISTORY_RANGES['1h'] ? '1h' : '24h';
  const latest = latestReadingAt ? Date.parse(latestReadingAt) : NaN;
  return now - latest <= HISTORY_RANGES['7d'] ? '7d' : DEFAULT_HISTORY_RANGE;
}
