import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Tables whose `device_id` held the device row's id (a UUID), while `devices.device_id` and
 * every API field of that name are the Device ID printed on the collar (PET-XXXX). From here
 * the row reference is `device_uuid` everywhere (decision 0045). A rename only: SQLite (3.25
 * and later) and PostgreSQL carry the indexes, keys and references with it, and no row is
 * rewritten.
 */
export const RENAMED = [
  'readings',
  'reading_rollups',
  'activity_hours',
  'activity_walks',
  'alerts',
  'alert_mails',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of RENAMED)
    await db.schema.alterTable(table).renameColumn('device_id', 'device_uuid').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of RENAMED)
    await db.schema.alterTable(table).renameColumn('device_uuid', 'device_id').execute();
}
