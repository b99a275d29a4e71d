import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // Keys every instance on one PostgreSQL must share and that were generated rather than
  // configured: the VAPID pair pushes are signed with (decision 0049). The first instance's
  // pair is kept; the others read it.
  await db.schema
    .createTable('shared_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shared_keys').execute();
}
