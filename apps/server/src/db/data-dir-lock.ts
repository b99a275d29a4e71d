import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';

/** DATA_DIR cannot be used as it is: the server does not start, and the message says why. */
export class DataDirError extends Error {}
export class DataDirLockedError extends DataDirError {}

/**
 * Creates DATA_DIR private (0700), or makes an existing one private: it holds the database,
 * the generated JWT secret and the first admin's password, and whoever may write to it may
 * swap any of them. Answers the mode it had when that was wider (to be logged), else null.
 * A folder other accounts may write to and this server may not tighten stops the start.
 */
export function prepareDataDir(dataDir: string): number | null {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dataDir);
  if (!st.isDirectory()) throw new DataDirError(`DATA_DIR ${dataDir} is not a folder.`);
  const mode = st.mode & 0o777;
  if ((mode & 0o077) === 0) return null;
  try {
    fs.chmodSync(dataDir, 0o700);
  } catch (err) {
    if ((mode & 0o022) === 0) return null; // readable by others only: its files are 0600
    throw new DataDirError(
      `DATA_DIR ${dataDir} can be written by other accounts (mode ${octal(mode)}) and this server cannot make it private (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Run \`chmod 700 ${dataDir}\` as its owner, or set DATA_DIR to a folder of this server's own.`,
    );
  }
  return mode;
}

export const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, '0')}`;

/**
 * This server instance's name, kept in DATA_DIR/instance-id (made once, 0600). One process at
 * a time holds DATA_DIR (lockDataDir), so a mail claim carrying this id after a restart was
 * left by a process that is gone. Call it with the lock held.
 */
export function instanceIdOf(dataDir: string): string {
  const file = path.join(dataDir, 'instance-id');
  try {
    const id = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const id = randomUUID();
  fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}

/**
 * One server process owns DATA_DIR. The lock is an OS file lock on DATA_DIR/pawguard.lock,
 * taken through SQLite's exclusive locking mode on that small file of its own: SQLite holds it
 * for the life of the connection, refuses it to a second connection in this process or any
 * other, and the kernel releases it when the process dies (kill -9 leaves no stale lock).
 * It is a file apart from the database so that the database itself can have other
 * connections: the WAL checkpointer's (wal-checkpointer.ts) and the reader's of history and
 * the back-test (sqlite-reader.ts).
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
