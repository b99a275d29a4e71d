import type { DbHandle } from './handle.js';
import { instanceIdOf, lockDataDir, prepareDataDir } from './data-dir-lock.js';
import { openSqlite } from './sqlite.js';
import { openPostgres } from './postgres.js';

export interface OpenDbOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in (tests give each worker its own). */
  pgSchema?: string;
  /** How long PostgreSQL is waited for at start and for each new connection (ms; default 5 s). */
  connectTimeoutMs?: number;
  /** How long a query on an open PostgreSQL connection waits for an answer (ms; default 15 s). */
  queryTimeoutMs?: number;
}

/**
 * Makes DATA_DIR private and takes its lock, then opens SQLite in it, or PostgreSQL when a
 * DATABASE_URL is given. The handle's close releases the lock.
 */
export async function openDatabase(opts: OpenDbOptions): Promise<DbHandle> {
  // Private: it holds the database (password hashes, sessions) and generated secrets.
  const tightenedFrom = prepareDataDir(opts.dataDir);
  // One server process per DATA_DIR, on either database: its instance id is that process's.
  // Taken before the database is touched, so a second server never opens (or closes) a
  // descriptor of it: closing one would drop the POSIX locks the first server's connection holds.
  const lock = lockDataDir(opts.dataDir);
  try {
    const instanceId = instanceIdOf(opts.dataDir);
    const handle = opts.databaseUrl
      ? await openPostgres(
          opts.databaseUrl,
          opts.pgSchema,
          opts.connectTimeoutMs,
          opts.queryTimeoutMs,
        )
      : openSqlite(opts.dataDir);
    const close = handle.close;
    return Object.assign(handle, {
      instanceId,
      dataDirTightenedFrom: tightenedFrom,
      close: async () => {
        try {
          await close();
        } finally {
          lock.release();
        }
      },
    });
  } catch (err) {
    lock.release();
    throw err;
  }
}
