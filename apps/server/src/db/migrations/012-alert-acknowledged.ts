import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // When the owner acknowledged an open heat alert (decision 0037): it stays open and watched,
  // its notifications are read, and only an escalation asks for them again (which clears it).
  await db.schema.alterTable('alerts').addColumn('acknowledged_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('acknowledged_at').execute();
}
