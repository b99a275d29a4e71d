import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The pack (docs/pack.md): who shares a pet with its owner, as what, and until when (null:
  // until removed). A person is in a pet's pack once.
  await db.schema
    .createTable('pack_members')
    .addColumn('dog_id', 'text', (c) => c.notNull().references('dogs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pack_members_pk', ['dog_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('pack_members_user_idx')
    .on('pack_members')
    .column('user_id')
    .execute();

  // An invitation by e-mail: its link's token is kept only as a hash, works once, and expires.
  await db.schema
    .createTable('pack_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('dog_id', 'text', (c) => c.notNull().references('dogs.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('until', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addColumn('accepted_by', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createIndex('pack_invitations_dog_idx')
    .on('pack_invitations')
    .column('dog_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pack_invitations').execute();
  await db.schema.dropTable('pack_members').execute();
}
