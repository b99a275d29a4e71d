import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    // The owner when it opened: a released collar's alerts go with its readings.
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('level', 'text')
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .addColumn('reading_at', 'text')
    .addColumn('escalated_at', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('peak_temperature_celsius', 'double precision')
    .addColumn('peak_heat_index_f', 'double precision')
    .addColumn('battery_level', 'integer')
    .execute();
  // One open alert per device and type, enforced by the database (two instances, a race).
  await db.schema
    .createIndex('alerts_open_uq')
    .on('alerts')
    .columns(['device_id', 'type'])
    .unique()
    .where(sql.ref('resolved_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('alerts_device_opened_idx')
    .on('alerts')
    .columns(['device_id', 'opened_at'])
    .execute();
  await db.schema
    .createIndex('alerts_user_opened_idx')
    .on('alerts')
    .columns(['user_id', 'opened_at'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('level', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Newest first per person (the bell, the list), and the unread count.
  await db.schema
    .createIndex('notifications_user_created_idx')
    .on('notifications')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .column('user_id')
    .where(sql.ref('read_at'), 'is', null)
    .execute();

  // Low battery once per discharge: disarmed when it opens, re-armed at 30 % (DESIGN §3).
  await db.schema
    .alterTable('devices')
    .addColumn('battery_alert_armed', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('battery_alert_armed').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('alerts').execute();
}
