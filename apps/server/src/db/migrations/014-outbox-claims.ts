import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // Which server instance holds a row's claim (its DATA_DIR's instance id), null when none
  // does: a restarted instance frees its own claims at once instead of waiting out the lease.
  await db.schema.alterTable('outbox').addColumn('claimed_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('claimed_by').execute();
}
