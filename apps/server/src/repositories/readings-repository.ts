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
            .onConflict((oc) => oc.columns(['device_uuid', 'recorded_at']).doNothing())
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
      .where('device_uuid', '=', deviceId)
      .where('recorded_at', 'in', times)
      .execute();
  }

  /** Newest first. */
  page(deviceId: string, limit: number, offset: number): Promise<ReadingRow[]> {
    return this.db
      .selectFrom('readings')
      .selectAll()
      .where('device_uuid', '=', deviceId)
      .orderBy('recorded_at', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  latest(deviceId: string): Promise<ReadingRow | undefined> {
    return this.db
      .selectFrom('readings')
      .selectAll()
      .where('device_uuid', '=', deviceId)
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
      .where('device_uuid', '=', deviceId)
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
      .where('device_uuid', '=', deviceId)
      .where('recorded_at', '>=', from)
      .where('recorded_at', '<=', to)
      .orderBy('recorded_at', 'desc')
      .limit(cap)
      .execute();
  }

  /**
   * A released collar's readings go with it (the next owner never sees them), and so do the
   * alerts judged from them (their notifications with them), their rollups and the activity
   * classed from them; its count of readings kept is 0.
   */
  async deleteForDevice(deviceId: string, ex: Executor = this.db): Promise<void> {
    await ex.deleteFrom('alerts').where('device_uuid', '=', deviceId).execute();
    await ex.deleteFrom('readings').where('device_uuid', '=', deviceId).execute();
    await ex.deleteFrom('reading_rollups').where('device_uuid', '=', deviceId).execute();
    await ex.deleteFrom('activity_hours').where('device_uuid', '=', deviceId).execute();
    await ex.deleteFrom('activity_walks').where('device_uuid', '=', deviceId).execute();
    await ex
      .updateTable('devices')
      .set({ readings_stored: 0 })
      .where('id', '=', deviceId)
      .execute();
  }

  /**
   * Deletes up to `batch` readings taken before `cutoff`, and takes them off their collars'
   * counts of readings kept, in one transaction; answers how many. Small batches keep each
   * delete short, so ingest never waits long behind retention.
   *
   * On PostgreSQL (`lock`) the locks are taken in the order every other writer takes them:
   * the collars' rows first (in id order, as ingest locks them), then their readings. A
   * release locks its collar's row and then deletes its readings; had retention locked the
   * readings first, each would wait for the other: a deadlock. Readings another instance is
   * pruning are skipped, and only the readings locked here are counted off.
   */
  async pruneOlderThan(cutoff: number, batch: number, lock = false): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const due = () =>
        trx
          .selectFrom('readings')
          .select(['id', 'device_uuid'])
          .where('recorded_at', '<', cutoff)
          .orderBy('recorded_at')
          .limit(batch);
      let rows = await due().execute();
      if (rows.length === 0) return 0;
      if (lock) {
        const devices = [...new Set(rows.map((r) => r.device_uuid))].sort();
        await trx
          .selectFrom('devices')
          .select('id')
          .where('id', 'in', devices)
          .orderBy('id')
          // Not FOR UPDATE: a concurrent insert's foreign-key check on the collar's row
          // (KEY SHARE) need not wait for retention.
          .forNoKeyUpdate()
          .execute();
        rows = await due().where('device_uuid', 'in', devices).forUpdate().skipLocked().execute();
      }
      const perDevice = new Map<string, number>();
      for (const r of rows) perDevice.set(r.device_uuid, (perDevice.get(r.device_uuid) ?? 0) + 1);
      for (const [id, n] of [...perDevice].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
        await trx
          .updateTable('devices')
          .set((eb) => ({ readings_stored: eb('readings_stored', '-', n) }))
          .where('id', '=', id)
          .execute();
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .deleteFrom('readings')
          .where(
            'id',
            'in',
            rows.slice(i, i + 500).map((r) => r.id),
          )
          .execute();
      return rows.length;
    });
  }
}
