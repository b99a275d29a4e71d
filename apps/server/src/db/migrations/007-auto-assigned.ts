import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // 1 while a collar reserved by auto-assign waits for its first reading (decision 0007): the
  // per-person cap counts these, wherever the collar has been moved since.
  await db.schema
    .alterTable('devices')
    .addColumn('auto_assigned', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('auto_assigned').execute();
}
