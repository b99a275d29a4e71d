import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sqlIn('role', ['admin', 'user'])))
    .addColumn('email_verified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('email_confirmations')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('email_confirmations_user_id_idx')
    .on('email_confirmations')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('dogs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('breed', 'text')
    .addColumn('age', 'integer')
    .addColumn('weight', 'double precision')
    .addColumn('medical_info', 'text')
    .addColumn('emergency_contact', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dogs_user_id_idx')
    .on('dogs')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email_notifications_enabled', 'boolean', (c) => c.notNull())
    .addColumn('temperature_threshold', 'double precision', (c) => c.notNull())
    .addColumn('critical_temperature_threshold', 'double precision', (c) => c.notNull())
    .addColumn('email_frequency', 'text', (c) =>
      c.notNull().check(sqlIn('email_frequency', ['immediate', 'hourly', 'daily'])),
    )
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  await db.schema
    .createIndex('outbox_due_idx')
    .on('outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();
}

function sqlIn(column: string, values: string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'outbox',
    'notification_preferences',
    'dogs',
    'email_confirmations',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
