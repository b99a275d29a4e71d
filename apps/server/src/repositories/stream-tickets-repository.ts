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

  /** The sessions among these that are still live, with their user's current role. */
  liveSessions(sessionIds: string[], now: string) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'users.role'])
      .where('sessions.id', 'in', sessionIds)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .execute();
  }

  async pruneExpired(now: string): Promise<void> {
    await this.db.deleteFrom('stream_tickets').where('expires_at', '<=', now).execute();
  }
}
