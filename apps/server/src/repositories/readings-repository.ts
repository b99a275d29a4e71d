import { type Insertable, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database, ReadingsTable } from '../db/schema.js';
import { chunkSizes, CompiledQueries } from '../db/compiled-queries.js';

type Executor = Kysely<Database> | Transaction<Database>;
export type ReadingRow = Selectable<ReadingsTable>;
export type NewReadingRow = Insertable<ReadingsTable>;

export class ReadingsRepository {
  private readonly compiled = new CompiledQueries();

  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts what is new and skips a (device, time) already stored; answers the rows inserted.
   * Callers give each (device, time) once.
   */
  async insertNew(rows: NewReadingRow[], ex: Executor): Promise<ReadingRow[]> {
    const inserted: ReadingRow[] = [];
    if (rows.length === 0) return inserted;
    // Every row with the columns of them all, in one order: what one SQL text binds. A column
    // a row leaves out is NULL (no column of readings but its id has a default).
    const columns = [
      ...new Set(rows.flatMap((row) => Object.keys(row))),
    ] as (keyof NewReadingRow)[];
    const width = columns.length;
    let at = 0;
    for (const size of chunkSizes(rows.length)) {
      const values = rows
        .slice(at, (at += size))
        .flatMap((row) => columns.map((c) => row[c] ?? null));
      const r = await this.compiled.run(
        ex,
        `insertNew ${size} ${columns.join(',')}`,
        (v) =>
          ex
            .insertInto('readings')
            .values(
              Array.from(
                { length: size },
                (_, i) =>
                  Object.fromEntries(columns.map((c, j) => [c, v[i * width + j]])) as NewReadingRow,
              ),
            )
            .onConflict((oc) => oc.columns(['device_id', 'recorded_at']).doNothing())
            .returningAll(),
        values,
      );
      inserted.push(...r.rows);
    }
    return inserted;
  }

  /** The stored readings of one device at these times (to answer a repeated upload). */
  findAt(deviceId: string, times: number[], ex: Executor = this.db): Promise<ReadingRow[]> {
    if (times.length === 0) return Promise.resolve([]);
    return ex
      .selectFrom('readings')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('recorded_at', 'in', times)
      .execute();
  }

  /** Newest first. */
  page(deviceId: string, limit: number, offset: number): Promise<ReadingRow[]> {
    return this.db
      .selectFrom('readings')
      .selectAll()
      .where('device_id', '=', deviceId)
      .orderBy('recorded_at', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async count(deviceId: string): Promise<number> {
    const r = await this.db
      .selectFrom('readings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('device_id', '=', deviceId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  latest(deviceId: string): Promise<ReadingRow | undefined> {
    return this.db
      .selectFrom('readings')
      .selectAll()
      .where('device_id', '=', deviceId)
      .orderBy('recorded_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * What the rollups of one collar need of its readings in [from, to), oldest first (a minute
   * summed up again when a backlog reading lands inside it).
   */
  forRollup(deviceId: string, from: number, to: number, ex: Executor) {
    return ex
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
      .where('device_id', '=', deviceId)
      .where('recorded_at', '>=', from)
      .where('recorded_at', '<', to)
      .orderBy('recorded_at')
      .execute();
  }

  /** Newest first, within [from, to], at most `cap` rows. */
  newestBetween(deviceId: string, from: number, to: number, cap: number): Promise<ReadingRow[]> {
    return this.db
      .selectFrom('readings')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('recorded_at', '>=', from)
      .where('recorded_at', '<=', to)
      .orderBy('recorded_at', 'desc')
      .limit(cap)
      .execute();
  }

  /**
   * A released collar's readings go with it (the next owner never sees them), and so do the
   * alerts judged from them (their notifications with them) and their rollups.
   */
  async deleteForDevice(deviceId: string, ex: Executor = this.db): Promise<void> {
    await ex.deleteFrom('alerts').where('device_id', '=', deviceId).execute();
    await ex.deleteFrom('readings').where('device_id', '=', deviceId).execute();
    await ex.deleteFrom('reading_rollups').where('device_id', '=', deviceId).execute();
  }

  /**
   * Deletes up to `batch` readings taken before `cutoff`; answers how many. Small batches keep
   * each delete short, so ingest never waits long behind retention.
   */
  async pruneOlderThan(cutoff: number, batch: number): Promise<number> {
    const r = await this.db
      .deleteFrom('readings')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('readings')
          .select('id')
          .where('recorded_at', '<', cutoff)
          .orderBy('recorded_at')
          .limit(batch),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
