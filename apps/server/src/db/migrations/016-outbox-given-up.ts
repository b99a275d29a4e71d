import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // When the worker gave a mail up, and why, in words an admin can read (the mail server's
  // last answer, or that a day of retries ran out): the Admin Portal lists undelivered mail
  // from these. Null on mail still pending or sent, and on mail given up before this column.
  await db.schema.alterTable('outbox').addColumn('failed_at', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('failure_reason', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('outbox').dropColumn('failure_reason').execute();
  await db.schema.alterTable('outbox').dropColumn('failed_at').execute();
}
