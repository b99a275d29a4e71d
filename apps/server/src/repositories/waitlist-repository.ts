import type { Kysely } from 'kysely';
import type { Database, WaitlistEntriesTable } from '../db/schema.js';

export type WaitlistRow = WaitlistEntriesTable;

export class WaitlistRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: WaitlistRow): Promise<void> {
    await this.db.insertInto('waitlist_entries').values(row).execute();
  }

  listNewestFirst(limit: number, offset = 0) {
    return this.db
      .selectFrom('waitlist_entries')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('waitlist_entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
