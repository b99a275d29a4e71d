import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export class DataDirLockedError extends Error {}

/**
 * One server process owns DATA_DIR. The lock is an OS file lock on DATA_DIR/pawguard.lock,
 * taken through SQLite's exclusive locking mode on that small file of its own: SQLite holds it
 * for the life of the connection, refuses it to a second connection in this process or any
 * other, and the kernel releases it when the process dies (kill -9 leaves no stale lock).
 * It is a file apart from the database so that the database itself can have a second
 * connection, the WAL checkpointer's (wal-checkpointer.ts).
 *
 * The file is never opened here but by SQLite: POSIX locks belong to the process, and closing
 * any descriptor of a locked file would drop the lock another connection of ours holds on it.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = path.join(dataDir, 'pawguard.lock');
  let lock: SQLite.Database | null = null;
  try {
    lock = new SQLite(file);
    fs.chmodSync(file, 0o600);
    lock.pragma('busy_timeout = 0');
    lock.pragma('locking_mode = EXCLUSIVE');
    // Nothing is ever written: no journal file beside it (OFF is refused in defensive mode).
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (err) {
    lock?.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataDirLockedError(
        `Another PawGuard server is already using ${dataDir}. Stop it, or start this one with a different DATA_DIR.`,
      );
    }
    throw new DataDirLockedError(
      `Cannot take the lock ${file} (${(err as Error).message}). DATA_DIR must be a folder this server can write to.`,
    );
  }
  const held = lock;
  return {
    release: () => {
      if (held.open) held.close();
    },
  };
}

/** The SQLite database's file in DATA_DIR (with its -wal and -shm beside it). */
export const sqliteFile = (dataDir: string) => path.join(dataDir, 'pawguard.db');
