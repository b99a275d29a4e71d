import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The collar's time of the reading that ended an alert (resolved by the condition), beside
  // reading_at, the time of the one that opened it: a backlog uploaded late opens and ends
  // alerts at the time it arrives, and these say when it happened.
  await db.schema.alterTable('alerts').addColumn('resolved_reading_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('resolved_reading_at').execute();
}
