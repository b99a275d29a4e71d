import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // Who acknowledged an open heat alert (with acknowledged_at: who and when, on the bell and the
  // card), and the level whose "not yet acknowledged" reminder went out (docs/escalation.md):
  // one reminder a level, so a DANGER reminded once is reminded again only if it turns CRITICAL.
  await db.schema.alterTable('alerts').addColumn('acknowledged_by', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('reminded_level', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('reminded_at', 'text').execute();
  // How long a pet's DANGER or CRITICAL heat alert may go unacknowledged before it is sent again
  // to everyone (minutes; no row: the defaults, 15 and 5).
  await db.schema
    .createTable('pet_escalation')
    .addColumn('dog_id', 'text', (c) => c.primaryKey().references('dogs.id').onDelete('cascade'))
    .addColumn('danger_minutes', 'integer', (c) => c.notNull())
    .addColumn('critical_minutes', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pet_escalation').execute();
  await db.schema.alterTable('alerts').dropColumn('reminded_at').execute();
  await db.schema.alterTable('alerts').dropColumn('reminded_level').execute();
  await db.schema.alterTable('alerts').dropColumn('acknowledged_by').execute();
}
