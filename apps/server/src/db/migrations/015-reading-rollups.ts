import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // Each collar's readings summed up per minute and per hour (docs/operations.md "Rollups"):
  // history and the heat-risk back-test read these, never raw readings in bulk. Written in the
  // ingest transaction; kept longer than raw readings (hours a year).
  let table = db.schema
    .createTable('reading_rollups')
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('bucket_seconds', 'integer', (c) => c.notNull())
    .addColumn('bucket_at', 'bigint', (c) => c.notNull())
    .addColumn('first_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull());
  for (const series of ['temperature', 'humidity', 'heart_rate', 'activity'])
    table = table
      .addColumn(`${series}_min`, 'double precision')
      .addColumn(`${series}_max`, 'double precision')
      .addColumn(`${series}_sum`, 'double precision', (c) => c.notNull())
      .addColumn(`${series}_count`, 'integer', (c) => c.notNull());
  for (const level of ['status', 'level'])
    table = table
      .addColumn(`${level}_first`, 'integer', (c) => c.notNull())
      .addColumn(`${level}_last`, 'integer', (c) => c.notNull())
      .addColumn(`${level}_max`, 'integer', (c) => c.notNull())
      .addColumn(`${level}_rises`, 'integer', (c) => c.notNull())
      .addColumn(`${level}_elevated_ms`, 'bigint', (c) => c.notNull());
  await table
    .addColumn('level_head_status', 'integer', (c) => c.notNull())
    .addColumn('level_tail_status', 'integer', (c) => c.notNull())
    .addColumn('level_quiet_spells', 'integer', (c) => c.notNull())
    // One row per collar, width and bucket: what a batch's upsert meets, and every read's range.
    .addPrimaryKeyConstraint('reading_rollups_pk', ['device_id', 'bucket_seconds', 'bucket_at'])
    .execute();
  // Retention prunes the oldest buckets of each width across all collars.
  await db.schema
    .createIndex('reading_rollups_width_at_idx')
    .on('reading_rollups')
    .columns(['bucket_seconds', 'bucket_at'])
    .execute();
  await backfillRollups(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reading_rollups').execute();
}

/** Readings read per query, and rollup rows written per statement, by the backfill. */
const PAGE = 10_000;
const WRITE = 200;

/**
 * Sums up the readings already stored into minute and hour rollups, a collar at a time, a page
 * of readings at a time in time order (about 10 s for 2.6 million readings on SQLite).
 */
export async function backfillRollups(db: Kysely<any>): Promise<number> {
  const devices = await db.selectFrom('devices').select('id').execute();
  let rows = 0;
  for (const { id } of devices as { id: string }[]) {
    const pending: Row[] = [];
    const flush = async (all: boolean) => {
      while (pending.length >= (all ? 1 : WRITE)) {
        await db
          .insertInto('reading_rollups')
          .values(pending.splice(0, WRITE))
          // Buckets a batch already wrote stay as it wrote them.
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
    };
    // The minute and the hour being summed up.
    const open: {
      minute: { at: number; s: Summary } | null;
      hour: { at: number; s: Summary } | null;
    } = { minute: null, hour: null };
    const closeMinute = () => {
      const { minute, hour } = open;
      if (!minute) return;
      pending.push(toRollupRow(id, MINUTE_S, minute.at, minute.s));
      const h = bucketStart(minute.at, HOUR_S);
      if (hour && hour.at !== h) pending.push(toRollupRow(id, HOUR_S, hour.at, hour.s));
      open.hour =
        hour && hour.at === h
          ? { at: h, s: combineSummaries(hour.s, minute.s) }
          : { ...minute, at: h };
      open.minute = null;
    };
    let after = -1;
    for (;;) {
      const page = await db
        .selectFrom('readings')
        .select([
          'recorded_at',
          'temperature',
          'humidity',
          'heart_rate',
          'activity_level',
          'status',
          'risk_band',
        ])
        .where('device_id', '=', id)
        .where('recorded_at', '>', after)
        .orderBy('recorded_at')
        .limit(PAGE)
        .execute();
      for (const r of page) {
        const at = Number(r.recorded_at);
        const m = bucketStart(at, MINUTE_S);
        if (open.minute && open.minute.at !== m) closeMinute();
        const one = readingSummary({ ...r, recorded_at: at });
        open.minute = open.minute
          ? { at: m, s: combineSummaries(open.minute.s, one) }
          : { at: m, s: one };
      }
      rows += page.length;
      await flush(false);
      if (page.length < PAGE) break;
      after = Number(page.at(-1)!.recorded_at);
    }
    closeMinute();
    if (open.hour) pending.push(toRollupRow(id, HOUR_S, open.hour.at, open.hour.s));
    await flush(true);
  }
  return rows;
}

/*
 * What the backfill writes, frozen as it was when this migration was written: a copy of the
 * rollup arithmetic of services/rollup-summary.ts (and the level order of the shared package),
 * so that later changes there never change what this migration writes.
 */

const MINUTE_S = 60;
const HOUR_S = 3600;
/** The silence after a reading above SAFE counted as at most this long. */
const MAX_STEP_MS = 10 * 60_000;
const LEVELS = ['SAFE', 'WARNING', 'DANGER', 'CRITICAL'];

const bucketStart = (at: number, seconds: number) =>
  Math.floor(at / (seconds * 1000)) * seconds * 1000;
/** A level's rank, 0 (SAFE) to 3; anything else is SAFE. */
const rankOf = (v: unknown) => Math.max(0, LEVELS.indexOf(String(v)));

interface Stat {
  min: number | null;
  max: number | null;
  sum: number;
  count: number;
}
interface LevelRun {
  first: number;
  last: number;
  max: number;
  rises: number;
  elevatedMs: number;
}
interface Summary {
  firstAt: number;
  lastAt: number;
  count: number;
  temperature: Stat;
  humidity: Stat;
  heartRate: Stat;
  activity: Stat;
  status: LevelRun;
  level: LevelRun;
  headStatus: boolean;
  tailStatus: boolean;
  quietSpells: number;
}
type Row = Record<string, unknown>;

const stat = (v: number | null): Stat =>
  v === null ? { min: null, max: null, sum: 0, count: 0 } : { min: v, max: v, sum: v, count: 1 };
const run = (rank: number): LevelRun => ({
  first: rank,
  last: rank,
  max: rank,
  rises: 0,
  elevatedMs: 0,
});

function readingSummary(r: {
  recorded_at: number;
  temperature: number;
  humidity: number;
  heart_rate: number | null;
  activity_level: number | null;
  status: string;
  risk_band: string | null;
}): Summary {
  const at = Number(r.recorded_at);
  const t = rankOf(r.status);
  const l = Math.max(t, rankOf(r.risk_band));
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
const combineRun = (a: LevelRun, b: LevelRun, gapMs: number): LevelRun => ({
  first: a.first,
  last: b.last,
  max: Math.max(a.max, b.max),
  rises: a.rises + b.rises + (a.last === 0 && b.first > 0 ? 1 : 0),
  elevatedMs: a.elevatedMs + b.elevatedMs + (a.last > 0 ? Math.min(gapMs, MAX_STEP_MS) : 0),
});
const allAbove = (r: LevelRun) => r.first > 0 && r.last > 0 && r.rises === 0;

/** `a` then `b`: every reading of `a` is older than every reading of `b`. */
function combineSummaries(a: Summary, b: Summary): Summary {
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
    const joined = a.tailStatus || b.headStatus;
    if (aAll) headStatus = joined;
    if (bAll) tailStatus = joined;
    if (!aAll && !bAll && !joined) quietSpells++;
  } else {
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

function toRollupRow(deviceId: string, bucketSeconds: number, bucketAt: number, s: Summary): Row {
  const row: Row = {
    device_id: deviceId,
    bucket_seconds: bucketSeconds,
    bucket_at: bucketAt,
    first_at: s.firstAt,
    last_at: s.lastAt,
    count: s.count,
  };
  for (const [key, column] of [
    ['temperature', 'temperature'],
    ['humidity', 'humidity'],
    ['heartRate', 'heart_rate'],
    ['activity', 'activity'],
  ] as const) {
    row[`${column}_min`] = s[key].min;
    row[`${column}_max`] = s[key].max;
    row[`${column}_sum`] = s[key].sum;
    row[`${column}_count`] = s[key].count;
  }
  for (const key of ['status', 'level'] as const) {
    row[`${key}_first`] = s[key].first;
    row[`${key}_last`] = s[key].last;
    row[`${key}_max`] = s[key].max;
    row[`${key}_rises`] = s[key].rises;
    row[`${key}_elevated_ms`] = s[key].elevatedMs;
  }
  row.level_head_status = s.headStatus ? 1 : 0;
  row.level_tail_status = s.tailStatus ? 1 : 0;
  row.level_quiet_spells = s.quietSpells;
  return row;
}
