import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // How many readings each collar keeps: counted in the ingest transaction, taken down by
  // retention and cleared with a released collar's readings. An account's sum is what its
  // storage quota is checked against (decision 0039), instead of a count of rows per upload.
  await db.schema
    .alterTable('devices')
    .addColumn('readings_stored', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    UPDATE devices SET readings_stored =
      (SELECT COUNT(*) FROM readings WHERE readings.device_id = devices.id)
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('readings_stored').execute();
}
