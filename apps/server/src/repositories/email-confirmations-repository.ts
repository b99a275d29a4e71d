import type { Kysely, Transaction } from 'kysely';
import type { Database, EmailConfirmationsTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export class EmailConfirmationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: EmailConfirmationsTable, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('email_confirmations').values(row).execute();
  }

  /** Marks an unused, unexpired confirmation used; returns its user id, or undefined. */
  async consume(
    tokenHash: string,
    now: string,
    ex: Executor = this.db,
  ): Promise<string | undefined> {
    const row = await ex
      .updateTable('email_confirmations')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Links that can never be used again: used, or expired. */
  async pruneSpent(now: string): Promise<number> {
    const r = await this.db
      .deleteFrom('email_confirmations')
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
