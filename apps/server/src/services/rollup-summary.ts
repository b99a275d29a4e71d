import {
  VITALS_STATUSES,
  asVitalsStatus,
  higherLevel,
  type BacktestResult,
  type BacktestSide,
  type VitalsStatus,
} from '@pawguard/shared';
import type { ReadingRollupsTable } from '../db/schema.js';

/**
 * A rollup: what a collar's readings over one time bucket sum up to (docs/operations.md
 * "Rollups"). Built from readings in time order and combined bucket after bucket
 * (`combineSummaries` is associative), so a minute is summed from its readings, an hour from
 * its minutes, and the heat-risk back-test from hours, with the very figures a pass over the
 * readings themselves gives.
 */
export interface RollupSummary {
  /** Times (epoch ms) of the bucket's first and last reading. */
  firstAt: number;
  lastAt: number;
  count: number;
  temperature: Stat;
  humidity: Stat;
  heartRate: Stat;
  activity: Stat;
  /** The owner's thresholds' verdict (`threshold_status`), reading by reading. */
  status: LevelRun;
  /** The dog's one level (DESIGN §3): the higher of the thresholds and the model's risk band. */
  level: LevelRun;
  /**
   * Spells of the level above SAFE, and whether the thresholds left SAFE in them (what the
   * back-test's `model_only_alerts` counts): for the spell the bucket begins with (when its
   * first reading is above SAFE), the one it ends with, and how many spells lie wholly inside
   * it with the thresholds SAFE throughout.
   */
  headStatus: boolean;
  tailStatus: boolean;
  quietSpells: number;
}

/** Min, max, sum and how many values (a series a reading may leave out has fewer). */
export interface Stat {
  min: number | null;
  max: number | null;
  sum: number;
  count: number;
}

/** A level reading by reading, summed up: ranks 0 (SAFE) to 3 (CRITICAL). */
export interface LevelRun {
  first: number;
  last: number;
  max: number;
  /** Rises above SAFE after the first reading (a SAFE reading followed by one above it). */
  rises: number;
  /** Time after readings above SAFE, a silence counted as at most 10 minutes. */
  elevatedMs: number;
}

/** The back-test counts a silence after a reading above SAFE as at most this long. */
const MAX_STEP_MS = 10 * 60_000;

export const levelRank = (s: VitalsStatus): number => VITALS_STATUSES.indexOf(s);
export const levelOfRank = (r: number): VitalsStatus => VITALS_STATUSES[r] ?? 'SAFE';

/** What a rollup needs of a stored reading. */
export interface RollupReading {
  recorded_at: number;
  temperature: number;
  humidity: number;
  heart_rate: number | null;
  activity_level: number | null;
  status: string;
  risk_band: string | null;
}

const stat = (v: number | null): Stat =>
  v === null ? { min: null, max: null, sum: 0, count: 0 } : { min: v, max: v, sum: v, count: 1 };

const run = (rank: number): LevelRun => ({
  first: rank,
  last: rank,
  max: rank,
  rises: 0,
  elevatedMs: 0,
});

/** One reading as a rollup of its own. */
export function readingSummary(r: RollupReading): RollupSummary {
  const at = Number(r.recorded_at);
  const threshold = asVitalsStatus(r.status) ?? 'SAFE';
  const t = levelRank(threshold);
  const l = levelRank(higherLevel(threshold, asVitalsStatus(r.risk_band)));
  const thresholdsIn = l > 0 && t > 0;
  return {
    firstAt: at,
    lastAt: at,
    count: 1,
    temperature: stat(r.temperature),
    humidity: stat(r.humidity),
    heartRate: stat(r.heart_rate),
    activity: stat(r.activity_level),
    status: run(t),
    level: run(l),
    headStatus: thresholdsIn,
    tailStatus: thresholdsIn,
    quietSpells: 0,
  };
}

const lesser = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);
const greater = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

const combineStat = (a: Stat, b: Stat): Stat => ({
  min: lesser(a.min, b.min),
  max: greater(a.max, b.max),
  sum: a.sum + b.sum,
  count: a.count + b.count,
});

function combineRun(a: LevelRun, b: LevelRun, gapMs: number): LevelRun {
  return {
    first: a.first,
    last: b.last,
    max: Math.max(a.max, b.max),
    rises: a.rises + b.rises + (a.last === 0 && b.first > 0 ? 1 : 0),
    elevatedMs: a.elevatedMs + b.elevatedMs + (a.last > 0 ? Math.min(gapMs, MAX_STEP_MS) : 0),
  };
}

/** Every reading of the bucket above SAFE (one spell from its start to its end). */
const allAbove = (r: LevelRun) => r.first > 0 && r.last > 0 && r.rises === 0;

/** `a` then `b`: every reading of `a` is older than every reading of `b`. */
export function combineSummaries(a: RollupSummary, b: RollupSummary): RollupSummary {
  if (a.count === 0) return b;
  if (b.count === 0) return a;
  const aAll = allAbove(a.level);
  const bAll = allAbove(b.level);
  const aEndsAbove = a.level.last > 0;
  const bStartsAbove = b.level.first > 0;
  let headStatus = a.headStatus;
  let tailStatus = b.tailStatus;
  let quietSpells = a.quietSpells + b.quietSpells;
  if (aEndsAbove && bStartsAbove) {
    // a's last spell goes on into b's first.
    const joined = a.tailStatus || b.headStatus;
    if (aAll) headStatus = joined;
    if (bAll) tailStatus = joined;
    if (!aAll && !bAll && !joined) quietSpells++;
  } else {
    // a's last spell (if it is not also its first) and b's first (if not also its last) end
    // inside the two together.
    if (aEndsAbove && !aAll && !a.tailStatus) quietSpells++;
    if (bStartsAbove && !bAll && !b.headStatus) quietSpells++;
  }
  return {
    firstAt: a.firstAt,
    lastAt: b.lastAt,
    count: a.count + b.count,
    temperature: combineStat(a.temperature, b.temperature),
    humidity: combineStat(a.humidity, b.humidity),
    heartRate: combineStat(a.heartRate, b.heartRate),
    activity: combineStat(a.activity, b.activity),
    status: combineRun(a.status, b.status, b.firstAt - a.lastAt),
    level: combineRun(a.level, b.level, b.firstAt - a.lastAt),
    headStatus,
    tailStatus,
    quietSpells,
  };
}

export const EMPTY_SUMMARY: RollupSummary = {
  firstAt: 0,
  lastAt: 0,
  count: 0,
  temperature: stat(null),
  humidity: stat(null),
  heartRate: stat(null),
  activity: stat(null),
  status: run(0),
  level: run(0),
  headStatus: false,
  tailStatus: false,
  quietSpells: 0,
};

/** Readings (or rollups), oldest first, summed up. */
export function summarise<T>(items: readonly T[], of: (item: T) => RollupSummary): RollupSummary {
  let s = EMPTY_SUMMARY;
  for (const item of items) s = combineSummaries(s, of(item));
  return s;
}

function side(r: LevelRun): BacktestSide {
  return {
    // The first reading above SAFE opens an alert as a rise does.
    alerts: r.rises + (r.first > 0 ? 1 : 0),
    minutes_elevated: Math.round(r.elevatedMs / 60_000),
    highest: levelOfRank(r.max),
  };
}

/**
 * The heat-risk back-test (BacktestTally's figures) of the readings a summary sums up: alerts,
 * minutes above SAFE and the highest level for the thresholds alone and for the dog's level,
 * and the level's alerts during which the thresholds never left SAFE.
 */
export function backtestOf(s: RollupSummary): BacktestResult {
  if (s.count === 0) {
    const none = { alerts: 0, minutes_elevated: 0, highest: 'SAFE' as const };
    return { thresholds: none, model: none, model_only_alerts: 0 };
  }
  const all = allAbove(s.level);
  const head = s.level.first > 0 && !s.headStatus ? 1 : 0;
  const tail = s.level.last > 0 && !all && !s.tailStatus ? 1 : 0;
  return {
    thresholds: side(s.status),
    model: side(s.level),
    model_only_alerts: s.quietSpells + head + tail,
  };
}

/** The widths rollups are kept at (seconds): minutes and hours. */
export const MINUTE_S = 60;
export const HOUR_S = 3600;

export type RollupRow = ReadingRollupsTable;
type LevelColumn = Extract<keyof RollupRow, `status_${string}` | `level_${string}`>;

/** A summary as its row of reading_rollups (written out whole: it is on the ingest path). */
export function toRollupRow(
  deviceId: string,
  bucketSeconds: number,
  bucketAt: number,
  s: RollupSummary,
): RollupRow {
  const { temperature: t, humidity: h, heartRate: hr, activity: a, status, level } = s;
  return {
    device_uuid: deviceId,
    bucket_seconds: bucketSeconds,
    bucket_at: bucketAt,
    first_at: s.firstAt,
    last_at: s.lastAt,
    count: s.count,
    temperature_min: t.min,
    temperature_max: t.max,
    temperature_sum: t.sum,
    temperature_count: t.count,
    humidity_min: h.min,
    humidity_max: h.max,
    humidity_sum: h.sum,
    humidity_count: h.count,
    heart_rate_min: hr.min,
    heart_rate_max: hr.max,
    heart_rate_sum: hr.sum,
    heart_rate_count: hr.count,
    activity_min: a.min,
    activity_max: a.max,
    activity_sum: a.sum,
    activity_count: a.count,
    status_first: status.first,
    status_last: status.last,
    status_max: status.max,
    status_rises: status.rises,
    status_elevated_ms: status.elevatedMs,
    level_first: level.first,
    level_last: level.last,
    level_max: level.max,
    level_rises: level.rises,
    level_elevated_ms: level.elevatedMs,
    level_head_status: s.headStatus ? 1 : 0,
    level_tail_status: s.tailStatus ? 1 : 0,
    level_quiet_spells: s.quietSpells,
  };
}

const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null ? null : Number(v));

/** A row of reading_rollups as its summary; a row read without its series has none. */
export function fromRollupRow(
  row: Pick<RollupRow, 'first_at' | 'last_at' | 'count' | LevelColumn> & Partial<RollupRow>,
): RollupSummary {
  const r = row as unknown as Record<string, unknown>;
  const series = (column: string): Stat =>
    r[`${column}_count`] === undefined
      ? stat(null)
      : {
          min: numOrNull(r[`${column}_min`]),
          max: numOrNull(r[`${column}_max`]),
          sum: num(r[`${column}_sum`]),
          count: num(r[`${column}_count`]),
        };
  const levels = (key: 'status' | 'level'): LevelRun => ({
    first: num(r[`${key}_first`]),
    last: num(r[`${key}_last`]),
    max: num(r[`${key}_max`]),
    rises: num(r[`${key}_rises`]),
    elevatedMs: num(r[`${key}_elevated_ms`]),
  });
  return {
    firstAt: num(row.first_at),
    lastAt: num(row.last_at),
    count: num(row.count),
    temperature: series('temperature'),
    humidity: series('humidity'),
    heartRate: series('heart_rate'),
    activity: series('activity'),
    status: levels('status'),
    level: levels('level'),
    headStatus: num(row.level_head_status) === 1,
    tailStatus: num(row.level_tail_status) === 1,
    quietSpells: num(row.level_quiet_spells),
  };
}

/** Where a time falls: the start of its bucket `seconds` wide. */
export const bucketStart = (at: number, seconds: number) =>
  Math.floor(at / (seconds * 1000)) * seconds * 1000;
