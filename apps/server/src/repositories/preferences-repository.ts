import type { Kysely, Transaction } from 'kysely';
import type { Database, NotificationPreferencesTable } from '../db/schema.js';

export class PreferencesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(userId: string, ex: Kysely<Database> | Transaction<Database> = this.db) {
    return ex
      .selectFrom('notification_preferences')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async upsert(row: NotificationPreferencesTable): Promise<void> {
    const { user_id: _id, ...fields } = row;
    await this.db
      .insertInto('notification_preferences')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet(fields))
      .execute();
  }
}
