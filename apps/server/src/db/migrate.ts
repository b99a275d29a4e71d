import type { Kysely } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';

/** The migrations are listed in code (migrations/index.ts), so the bundle carries them. */
const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema` names where the migration bookkeeping lives: Kysely looks its tables up by name in
 * every schema, so a second schema in the same database would otherwise find the first's.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}
