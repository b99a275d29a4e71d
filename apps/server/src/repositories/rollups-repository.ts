import { sql, type Compilable, type Kysely, type Transaction } from 'kysely';
import type { SqliteReader } from '../db/sqlite-reader.js';
import type { Database, ReadingRollupsTable } from '../db/schema.js';
import { chunkSizes, CompiledQueries, inListChunks } from '../db/compiled-queries.js';

type Executor = Kysely<Database> | Transaction<Database>;
type RollupRow = ReadingRollupsTable;
/** A rollup's key: collar, width (seconds), bucket start (epoch ms). */
export type RollupKey = [deviceId: string, bucketSeconds: number, bucketAt: number];

/** Every column of reading_rollups, in one order: what one upsert text binds. */
const COLUMNS: (keyof RollupRow)[] = [
  'device_uuid',
  'bucket_seconds',
  'bucket_at',
  'first_at',
  'last_at',
  'count',
  ...(['temperature', 'humidity', 'heart_rate', 'activity'] as const).flatMap(
    (s) => [`${s}_min`, `${s}_max`, `${s}_sum`, `${s}_count`] as const,
  ),
  ...(['status', 'level'] as const).flatMap(
    (l) => [`${l}_first`, `${l}_last`, `${l}_max`, `${l}_rises`, `${l}_elevated_ms`] as const,
  ),
  'level_head_status',
  'level_tail_status',
  'level_quiet_spells',
];
const KEY = ['device_uuid', 'bucket_seconds', 'bucket_at'] as const;
const UPDATED = COLUMNS.filter((c) => !(KEY as readonly string[]).includes(c));

/** One history bucket: sums and counts, the averages divided out by the caller. */
export interface HistoryRow {
  bucket: number;
  count: number;
  t_min: number | null;
  t_sum: number;
  t_count: number;
  t_max: number | null;
  h_min: number | null;
  h_sum: number;
  h_count: number;
  h_max: number | null;
  hr_min: number | null;
  hr_sum: number;
  hr_count: number;
  hr_max: number | null;
}

/** Minute and hour rollups of each collar's readings (services/rollup-summary.ts). */
export class RollupsRepository {
  private readonly compiled = new CompiledQueries();

  constructor(
    private readonly db: Kysely<Database>,
    /** On SQLite, where the chart reads (history, the back-test) run (decision 0047). */
    private readonly reader?: SqliteReader,
  ) {}

  /** A chart read's rows: on the reading thread when there is one, else on the pool. */
  private chartRows<R>(query: Compilable<R> & { execute(): Promise<R[]> }): Promise<R[]> {
    return this.reader ? this.reader.all(query.compile(), () => query.execute()) : query.execute();
  }

  /** The rollups at these (collar, width, bucket start) keys: one statement per 256 keys. */
  async at(keys: RollupKey[], ex: Executor): Promise<RollupRow[]> {
    const out: RollupRow[] = [];
    for (const chunk of inListChunks(keys)) {
      const r = await this.compiled.run(
        ex,
        `rollupsAt ${chunk.length}`,
        (v) =>
          ex
            .selectFrom('reading_rollups')
            .selectAll()
            .where((eb) =>
              eb.or(
                chunk.map((_, i) =>
                  eb.and([
                    eb('device_uuid', '=', v[3 * i] as string),
                    eb('bucket_seconds', '=', v[3 * i + 1] as number),
                    eb('bucket_at', '=', v[3 * i + 2] as number),
                  ]),
                ),
              ),
            ),
        chunk.flat(),
      );
      out.push(...r.rows);
    }
    return out;
  }

  /**
   * The start of each collar's newest minute and hour rollup (null when it has none): an index
   * seek each, one statement per 256 collars.
   */
  async newestStarts(
    deviceIds: string[],
    ex: Executor,
  ): Promise<{ device_uuid: string; minute: number | null; hour: number | null }[]> {
    const out = [];
    for (let at = 0; at < deviceIds.length; at += 256) {
      const newest = (id: string, seconds: number) =>
        sql`(select max(bucket_at) from reading_rollups where device_uuid = ${id} and bucket_seconds = ${sql.lit(seconds)})`;
      const parts = deviceIds
        .slice(at, at + 256)
        .map(
          (id) =>
            sql`select cast(${id} as text) as device_uuid, ${newest(id, 60)} as minute, ${newest(id, 3600)} as hour`,
        );
      const r = await sql<{
        device_uuid: string;
        minute: number | null;
        hour: number | null;
      }>`${sql.join(parts, sql` union all `)}`.execute(ex);
      out.push(...r.rows);
    }
    return out;
  }

  /** Writes these rollups whole, over what was stored for the same buckets. */
  async upsert(rows: RollupRow[], ex: Executor): Promise<void> {
    let at = 0;
    for (const size of chunkSizes(rows.length)) {
      const values: unknown[] = [];
      for (const row of rows.slice(at, (at += size))) for (const c of COLUMNS) values.push(row[c]);
      await this.compiled.run(
        ex,
        `rollupsUpsert ${size}`,
        (v) =>
          ex
            .insertInto('reading_rollups')
            .values(
              Array.from(
                { length: size },
                (_, i) =>
                  Object.fromEntries(
                    COLUMNS.map((c, j) => [c, v[i * COLUMNS.length + j]]),
                  ) as unknown as RollupRow,
              ),
            )
            .onConflict((oc) =>
              oc
                .columns([...KEY])
                .doUpdateSet((eb) =>
                  Object.fromEntries(UPDATED.map((c) => [c, eb.ref(`excluded.${c}`)])),
                ),
            ),
        values,
      );
    }
  }

  /** One collar's rollups of one width with starts in [from, to), oldest first. */
  between(
    deviceId: string,
    bucketSeconds: number,
    from: number,
    to: number,
    ex: Executor = this.db,
  ): Promise<RollupRow[]> {
    return ex
      .selectFrom('reading_rollups')
      .selectAll()
      .where('device_uuid', '=', deviceId)
      .where('bucket_seconds', '=', bucketSeconds)
      .where('bucket_at', '>=', from)
      .where('bucket_at', '<', to)
      .orderBy('bucket_at')
      .execute();
  }

  /**
   * What the back-test needs (counts, times and levels, no series) of one collar's rollups in
   * these spans of one width each, oldest first: the spans do not overlap.
   */
  levels(deviceId: string, spans: { seconds: number; from: number; to: number }[]) {
    return this.chartRows(
      this.db
        .selectFrom('reading_rollups')
        .select([
          'first_at',
          'last_at',
          'count',
          ...(['status', 'level'] as const).flatMap(
            (l) =>
              [`${l}_first`, `${l}_last`, `${l}_max`, `${l}_rises`, `${l}_elevated_ms`] as const,
          ),
          'level_head_status',
          'level_tail_status',
          'level_quiet_spells',
        ])
        // The collar in each branch: SQLite then reads each span from the key's index.
        .where((eb) =>
          eb.or(
            spans.map((s) =>
              eb.and([
                eb('device_uuid', '=', deviceId),
                eb('bucket_seconds', '=', s.seconds),
                eb('bucket_at', '>=', s.from),
                eb('bucket_at', '<', s.to),
              ]),
            ),
          ),
        )
        .orderBy('bucket_at'),
    );
  }

  /**
   * Min, sum, count and max per history bucket over [from, to), from the rollups of one width
   * (which divides the bucket): a day of minutes is 1,440 rows, a week of hours 168.
   */
  history(
    deviceId: string,
    rollupSeconds: number,
    from: number,
    to: number,
    bucketMs: number,
  ): Promise<HistoryRow[]> {
    // CAST: SQLite binds JS numbers as REAL, which would make the division fractional.
    const bucket = sql<number>`cast((bucket_at - ${from}) / ${bucketMs} as integer)`;
    return this.chartRows(
      this.db
        .selectFrom('reading_rollups')
        .select((eb) => [
          bucket.as('bucket'),
          eb.fn.sum<number>('count').as('count'),
          eb.fn.min<number | null>('temperature_min').as('t_min'),
          eb.fn.sum<number>('temperature_sum').as('t_sum'),
          eb.fn.sum<number>('temperature_count').as('t_count'),
          eb.fn.max<number | null>('temperature_max').as('t_max'),
          eb.fn.min<number | null>('humidity_min').as('h_min'),
          eb.fn.sum<number>('humidity_sum').as('h_sum'),
          eb.fn.sum<number>('humidity_count').as('h_count'),
          eb.fn.max<number | null>('humidity_max').as('h_max'),
          eb.fn.min<number | null>('heart_rate_min').as('hr_min'),
          eb.fn.sum<number>('heart_rate_sum').as('hr_sum'),
          eb.fn.sum<number>('heart_rate_count').as('hr_count'),
          eb.fn.max<number | null>('heart_rate_max').as('hr_max'),
        ])
        .where('device_uuid', '=', deviceId)
        .where('bucket_seconds', '=', rollupSeconds)
        .where('bucket_at', '>=', from)
        .where('bucket_at', '<', to)
        // By position: PostgreSQL would not match a repeated expression with fresh parameters.
        .groupBy(sql`1`)
        .orderBy(sql`1`),
    );
  }

  /** Deletes up to `batch` rollups of one width older than `cutoff`; answers how many. */
  async pruneOlderThan(bucketSeconds: number, cutoff: number, batch: number): Promise<number> {
    const old = this.db
      .selectFrom('reading_rollups')
      .select(['device_uuid', 'bucket_at'])
      .where('bucket_seconds', '=', bucketSeconds)
      .where('bucket_at', '<', cutoff)
      .orderBy('bucket_at')
      .limit(batch);
    const r = await this.db
      .deleteFrom('reading_rollups')
      .where('bucket_seconds', '=', bucketSeconds)
      .where(sql<boolean>`(device_uuid, bucket_at) in (${old})`)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
