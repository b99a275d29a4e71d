import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // Each collar's activity per UTC hour, classed from its minute rollups by the activity job
  // (docs/activity.md): kept as long as hour rollups, so 90 days of activity outlive the 35 days
  // of minutes. `source_count` is the readings summed, to tell when the hour has changed since.
  await db.schema
    .createTable('activity_hours')
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('hour_at', 'bigint', (c) => c.notNull())
    .addColumn('source_count', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('vigorous', 'integer', (c) => c.notNull())
    .addColumn('heat', 'integer', (c) => c.notNull())
    .addColumn('still', 'integer', (c) => c.notNull())
    .addColumn('worn', 'integer', (c) => c.notNull())
    .addColumn('still_hr_sum', 'double precision', (c) => c.notNull())
    .addColumn('still_hr_count', 'integer', (c) => c.notNull())
    .addColumn('safe_minutes', 'integer', (c) => c.notNull())
    .addColumn('warning_minutes', 'integer', (c) => c.notNull())
    .addColumn('danger_minutes', 'integer', (c) => c.notNull())
    .addColumn('critical_minutes', 'integer', (c) => c.notNull())
    .addColumn('max_heat_index', 'double precision')
    .addColumn('max_level', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('activity_hours_pk', ['device_id', 'hour_at'])
    .execute();
  // Retention prunes the oldest hours across all collars.
  await db.schema
    .createIndex('activity_hours_at_idx')
    .on('activity_hours')
    .column('hour_at')
    .execute();

  // Walks: sustained bouts of activity, one row per collar and start.
  await db.schema
    .createTable('activity_walks')
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('minutes', 'integer', (c) => c.notNull())
    .addColumn('active_minutes', 'integer', (c) => c.notNull())
    .addColumn('peak_heat_index', 'double precision')
    .addColumn('peak_level', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('activity_walks_pk', ['device_id', 'start_at'])
    .execute();
  await db.schema
    .createIndex('activity_walks_at_idx')
    .on('activity_walks')
    .column('start_at')
    .execute();

  // The owner's goal for a dog (minutes a day); no row: the suggestion.
  await db.schema
    .createTable('activity_goals')
    .addColumn('dog_id', 'text', (c) => c.primaryKey().references('dogs.id').onDelete('cascade'))
    .addColumn('active_minutes', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // The weekly insights mail: off unless the owner turns it on; the last week it was queued for.
  await db.schema
    .createTable('insight_mail_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('weekly_insights', 'boolean', (c) => c.notNull())
    .addColumn('last_week', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('insight_mail_settings').execute();
  await db.schema.dropTable('activity_goals').execute();
  await db.schema.dropTable('activity_walks').execute();
  await db.schema.dropTable('activity_hours').execute();
}
