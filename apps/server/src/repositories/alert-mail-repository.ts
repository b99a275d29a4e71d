import type { Insertable, Kysely, Transaction } from 'kysely';
import type { AlertMailsTable, Database } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Alert e-mail's own tables: `alert_mails`, the immediate mails sent (what the cooldown and
 * the hourly cap count), and `digest_entries`, the notifications waiting for a digest.
 */
export class AlertMailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** What this owner's mails about a device since `since` (ISO) reported: type and level. */
  recentForDevice(userId: string, device: string, since: string, ex: Executor) {
    return ex
      .selectFrom('alert_mails')
      .select(['alert_type as type', 'level'])
      .where('device_uuid', '=', device)
      .where('user_id', '=', userId)
      .where('created_at', '>', since)
      .execute();
  }

  /** How many alert mails a person was sent since `since` (ISO). */
  async countSince(userId: string, since: string, ex: Executor): Promise<number> {
    const sent = await ex
      .selectFrom('alert_mails')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(sent.n);
  }

  /** Remembers an immediate mail (in the transaction that queues it). */
  async recordSent(row: Insertable<AlertMailsTable>, ex: Executor): Promise<void> {
    await ex.insertInto('alert_mails').values(row).execute();
  }

  /** Keeps a notification for a digest, not yet taken by one. */
  async hold(
    entry: { notification_id: string; user_id: string; created_at: string },
    ex: Executor,
  ): Promise<void> {
    await ex
      .insertInto('digest_entries')
      .values({
        notification_id: entry.notification_id,
        user_id: entry.user_id,
        created_at: entry.created_at,
        digest_key: null,
      })
      .execute();
  }

  /**
   * Each person with entries waiting (created at `upTo`, ISO, or before): their e-mail
   * preferences (null: none stored), time zone and the oldest entry's time.
   */
  waiting(upTo: string) {
    return this.db
      .selectFrom('digest_entries')
      .leftJoin('notification_preferences as p', 'p.user_id', 'digest_entries.user_id')
      .leftJoin('users as u', 'u.id', 'digest_entries.user_id')
      .select([
        'digest_entries.user_id',
        'p.email_frequency',
        'p.email_notifications_enabled',
        'u.time_zone',
      ])
      .select((eb) => eb.fn.min('digest_entries.created_at').as('oldest'))
      .where('digest_entries.digest_key', 'is', null)
      .where('digest_entries.created_at', '<=', upTo)
      .groupBy([
        'digest_entries.user_id',
        'p.email_frequency',
        'p.email_notifications_enabled',
        'u.time_zone',
      ])
      .execute();
  }

  /**
   * Takes a person's waiting entries up to `windowEnd` (ISO), marking them with `key` (the
   * digest's, or 'off' when their mail is off), in one UPDATE: of two instances at once each
   * entry goes to one digest. Answers their notification ids.
   */
  async take(
    userId: string,
    windowEnd: string,
    key: string,
    trx: Transaction<Database>,
  ): Promise<string[]> {
    const taken = await trx
      .updateTable('digest_entries')
      .set({ digest_key: key })
      .where('user_id', '=', userId)
      .where('digest_key', 'is', null)
      .where('created_at', '<=', windowEnd)
      .returning('notification_id')
      .execute();
    return taken.map((t) => t.notification_id);
  }
}
