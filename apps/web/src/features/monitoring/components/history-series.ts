import {
  celsiusIn,
  FRESH_MS,
  type History,
  type HistoryRange,
  type TemperatureUnit,
} from '@pawguard/shared';
import { formatInZone, TIME, TIME_SECONDS, zonedTicks } from '@/lib/time-format';

/**
 * History buckets as chart points. Temperature is drawn in the owner's preferred unit (the
 * thresholds, set in °F, are drawn converted to it); a bucket's band is its min–max, its line the average. A silence longer than a
 * collar's disconnection (2 minutes) or one and a half buckets, whichever is longer, becomes
 * a point with no values, so the lines break there instead of bridging it. (Shorter stretches
 * of empty buckets are just a collar reporting less often than the buckets are wide.)
 */
export type ChartPoint = {
  /** The bucket's start, epoch ms. */
  t: number;
  count: number;
  temperature: number | null;
  temperatureRange: [number, number] | null;
  humidity: number | null;
  humidityRange: [number, number] | null;
  heartRate: number | null;
  heartRateRange: [number, number] | null;
};

type Stat = { min: number; avg: number; max: number } | null;

const round1 = (v: number) => Math.round(v * 10) / 10;
const avgOf = (s: Stat, f = (v: number) => v) => (s ? round1(f(s.avg)) : null);
const rangeOf = (s: Stat, f = (v: number) => v): [number, number] | null =>
  s ? [round1(f(s.min)), round1(f(s.max))] : null;

const gap = (t: number): ChartPoint => ({
  t,
  count: 0,
  temperature: null,
  temperatureRange: null,
  humidity: null,
  humidityRange: null,
  heartRate: null,
  heartRateRange: null,
});

export function toChartPoints(history: History, unit: TemperatureUnit): ChartPoint[] {
  const inUnit = (c: number) => celsiusIn(c, unit);
  const size = history.bucket_seconds * 1000;
  const silence = Math.max(FRESH_MS, size * 1.5);
  const points: ChartPoint[] = [];
  let previous: number | null = null;
  for (const bucket of history.buckets) {
    const t = Date.parse(bucket.t);
    if (previous !== null && t - previous > silence) points.push(gap(previous + size));
    points.push({
      t,
      count: bucket.count,
      temperature: avgOf(bucket.temperature, inUnit),
      temperatureRange: rangeOf(bucket.temperature, inUnit),
      humidity: avgOf(bucket.humidity),
      humidityRange: rangeOf(bucket.humidity),
      heartRate: avgOf(bucket.heart_rate),
      heartRateRange: rangeOf(bucket.heart_rate),
    });
    previous = t;
  }
  return points;
}

/**
 * The value axis of a chart: every bucket's min–max and the lines drawn across it (the owner's
 * thresholds), with room below and above so that no line lies on the axis or the frame, and
 * ticks at a round step (1, 2, 5, 10, 20, 25, 50 or 100; at most 6 of them), within what
 * the series can be. Null when there is nothing to draw.
 */
export function valueAxis(
  points: readonly ChartPoint[],
  rangeKey: keyof ChartPoint,
  lines: readonly number[] = [],
  /** What the series can be at all (humidity 0–100 %): the axis never goes past it. */
  limits: readonly [number, number] = [-Infinity, Infinity],
): { domain: [number, number]; ticks: number[] } | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    const band = p[rangeKey] as [number, number] | null;
    if (!band) continue;
    lo = Math.min(lo, band[0]);
    hi = Math.max(hi, band[1]);
  }
  if (lo === Infinity) return null;
  for (const y of lines) {
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
  }
  const room = Math.max(0.5, (hi - lo) * 0.05);
  lo = Math.max(lo - room, limits[0]);
  hi = Math.min(hi + room, limits[1]);
  const step =
    [1, 2, 5, 10, 20, 25, 50, 100].find((s) => Math.ceil(hi / s) - Math.floor(lo / s) <= 5) ?? 100;
  const first = Math.max(Math.floor(lo / step) * step, limits[0]);
  const last = Math.min(Math.ceil(hi / step) * step, limits[1]);
  const ticks: number[] = [];
  for (let t = first; t <= last; t += step) ticks.push(t);
  return { domain: [first, last], ticks };
}

export type SeriesName = 'temperature' | 'humidity' | 'heart_rate';

/** Lowest, average (weighted by readings) and highest of one series over the whole range. */
export function seriesSummary(
  history: History,
  series: SeriesName,
): { min: number; avg: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let weight = 0;
  for (const bucket of history.buckets) {
    const stat = bucket[series];
    if (!stat) continue;
    min = Math.min(min, stat.min);
    max = Math.max(max, stat.max);
    const n = Math.max(1, bucket.count);
    sum += stat.avg * n;
    weight += n;
  }
  return weight === 0 ? null : { min, avg: sum / weight, max };
}

export const hasReadings = (history: History) => history.buckets.some((b) => b.count > 0);

/** Round times in the account's zone across the range for the time axis: every 10 min, 4 h, or day. */
export function timeTicks(
  from: number,
  to: number,
  range: HistoryRange,
  timeZone: string | null,
): number[] {
  const zone = timeZone ?? 'UTC';
  if (range === '7d') return zonedTicks(from, to, 'day', zone);
  return zonedTicks(from, to, range === '24h' ? { hours: 4 } : { minutes: 10 }, zone);
}

const DAY: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric' };
const DAY_TIME: Intl.DateTimeFormatOptions = { weekday: 'short', ...TIME };

/** A tick label in the account's zone: the time of day, or the day for the week. */
export const formatTick = (t: number, range: HistoryRange, timeZone: string | null) =>
  formatInZone(t, timeZone, range === '7d' ? DAY : TIME);

/**
 * A bucket's time in a tooltip or table, in the account's zone. Buckets shorter than a minute
 * (the last hour, 10 s) need their seconds to tell them apart.
 */
export const formatBucketTime = (
  t: number,
  range: HistoryRange,
  bucketSeconds: number,
  timeZone: string | null,
) =>
  formatInZone(t, timeZone, range === '1h' ? (bucketSeconds < 60 ? TIME_SECONDS : TIME) : DAY_TIME);

/** The length of one bucket, for a caption: '10-second', '5-minute', '2-hour'. */
export function bucketLength(seconds: number): string {
  if (seconds < 60) return `${seconds}-second`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}-minute`;
  return `${Math.round(seconds / 3600)}-hour`;
}
