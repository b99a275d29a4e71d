import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // A browser that takes this person's pushes (docs/push.md): the push service's endpoint
  // (unique: a browser subscribed again under another account moves to it) and the keys the
  // payload is encrypted to. The keys are secrets of that browser: never logged or answered.
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user_idx')
    .on('push_subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();

  // Which alerts push (no row: the defaults, WARNING and above, no offline or battery pushes).
  await db.schema
    .createTable('push_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('min_level', 'text', (c) => c.notNull())
    .addColumn('offline', 'integer', (c) => c.notNull())
    .addColumn('low_battery', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Pushes ride the outbox like mail: `channel` tells them apart, and a push row names the
  // subscription it goes to. No foreign key (SQLite cannot drop a column that has one): the
  // repository deletes a subscription's pending pushes with it, and the worker drops a push
  // whose subscription is gone.
  await db.schema
    .alterTable('outbox')
    .addColumn('channel', 'text', (c) => c.notNull().defaultTo('mail'))
    .execute();
  await db.schema.alterTable('outbox').addColumn('push_subscription_id', 'text').execute();
  await db.schema
    .createIndex('outbox_channel_due_idx')
    .on('outbox')
    .columns(['channel', 'status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('outbox_push_subscription_idx')
    .on('outbox')
    .column('push_subscription_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Pushes are not mail: without their channel the mail worker would take them for mail.
  await db.deleteFrom('outbox').where('channel', '=', 'push').execute();
  await db.schema.dropIndex('outbox_push_subscription_idx').execute();
  await db.schema.dropIndex('outbox_channel_due_idx').execute();
  await db.schema.alterTable('outbox').dropColumn('push_subscription_id').execute();
  await db.schema.alterTable('outbox').dropColumn('channel').execute();
  await db.schema.dropTable('push_settings').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
