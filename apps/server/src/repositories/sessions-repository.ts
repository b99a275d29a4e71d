import type { Kysely, Transaction } from 'kysely';
import type { Database, SessionsTable } from '../db/schema.js';
import { CompiledQueries } from '../db/compiled-queries.js';

type Executor = Kysely<Database> | Transaction<Database>;

export class SessionsRepository {
  private readonly compiled = new CompiledQueries(4);

  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SessionsTable, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('sessions').values(row).execute();
  }

  /** The live session's user, read fresh on every request so role changes apply at once. */
  findActiveUser(sessionId: string, userId: string, now: string) {
    // Every signed-in request asks this: built and compiled once (see CompiledQueries).
    return this.compiled
      .run(
        this.db,
        'findActiveUser',
        ([id, user, at]) =>
          this.db
            .selectFrom('sessions')
            .innerJoin('users', 'users.id', 'sessions.user_id')
            .select([
              'users.id',
              'users.name',
              'users.email',
              'users.role',
              'users.created_at',
              'users.time_zone',
              'users.temperature_unit',
              'users.weight_unit',
              'sessions.id as session_id',
            ])
            .where('sessions.id', '=', id as string)
            .where('sessions.user_id', '=', user as string)
            .where('sessions.revoked_at', 'is', null)
            .where('sessions.expires_at', '>', at as string),
        [sessionId, userId, now],
      )
      .then((r) => r.rows[0]);
  }

  async revoke(sessionId: string, now: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Sessions that can never be used again: expired, or ended by logout. */
  async pruneEnded(now: string): Promise<number> {
    const r = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', 'is not', null)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
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
}
