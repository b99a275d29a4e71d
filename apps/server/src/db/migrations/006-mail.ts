import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // Each immediate alert mail queued: the 15-minute cooldown per device and the hourly cap
  // per person are counted here, in the same transaction that queues the mail.
  await db.schema
    .createTable('alert_mails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('alert_type', 'text', (c) => c.notNull())
    .addColumn('level', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_mails_user_created_idx')
    .on('alert_mails')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('alert_mails_device_created_idx')
    .on('alert_mails')
    .columns(['device_id', 'created_at'])
    .execute();

  // Notifications waiting for a digest (hourly, daily, or held back by the hourly cap);
  // `digest_key` is set, in the transaction that queues the digest, to that digest's key.
  await db.schema
    .createTable('digest_entries')
    .addColumn('notification_id', 'text', (c) =>
      c.primaryKey().references('notifications.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('digest_key', 'text')
    .execute();
  await db.schema
    .createIndex('digest_entries_pending_idx')
    .on('digest_entries')
    .columns(['digest_key', 'user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('digest_entries').execute();
  await db.schema.dropTable('alert_mails').execute();
}
