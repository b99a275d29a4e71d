import type { Kysely } from 'kysely';
import type { Database, StreamTicketsTable } from '../db/schema.js';

export class StreamTicketsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: StreamTicketsTable): Promise<void> {
    await this.db.insertInto('stream_tickets').values(row).execute();
  }

  /**
   * Spends a ticket: one UPDATE that succeeds only while it is unused and unexpired, so of two
   * concurrent uses exactly one gets the session.
   */
  spend(hash: string, now: string) {
    return this.db
      .updateTable('stream_tickets')
      .set({ used_at: now })
      .where('ticket_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['session_id', 'user_id'])
      .executeTakeFirst();
  }

  /** Spent or expired tickets, which can never open a stream again. */
  async pruneExpired(now: string): Promise<number> {
    const r = await this.db
      .deleteFrom('stream_tickets')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
