import type { Kysely } from 'kysely';
import {
  HOUR_S,
  MINUTE_S,
  bucketStart,
  combineSummaries,
  readingSummary,
  toRollupRow,
  type RollupRow,
  type RollupSummary,
} from '../../services/rollup-summary.js';

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
    const pending: RollupRow[] = [];
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
      minute: { at: number; s: RollupSummary } | null;
      hour: { at: number; s: RollupSummary } | null;
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
