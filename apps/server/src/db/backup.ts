import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { lockDataDir, sqliteFile } from './data-dir-lock.js';

/** A backup or restore that cannot be done; the message says why and what to do. */
export class BackupError extends Error {}

/**
 * A consistent copy of DATA_DIR's SQLite database in `target`, taken while a server may be
 * running on it (docs/decisions/0029). A connection of its own opens the database read-only,
 * beside the server's: the server's lock is on DATA_DIR/pawguard.lock, not on the database,
 * which is in WAL mode with normal locking, so a reader neither waits for the server nor makes
 * it wait. `VACUUM INTO` writes everything committed when it began, in one read transaction,
 * as a compact standalone file (no -wal beside it). The copy is checked, made private (0600)
 * and only then given its name, so `target` is never a half-written file.
 */
export function backupSqlite(
  dataDir: string,
  target: string,
): { file: string; bytes: number; ms: number } {
  const source = sqliteFile(dataDir);
  if (!fs.existsSync(source))
    throw new BackupError(`There is no database at ${source}: is DATA_DIR right?`);
  const file = path.resolve(target);
  if (fs.existsSync(file))
    throw new BackupError(`${file} already exists: name a new file (a backup never overwrites).`);
  if (!fs.existsSync(path.dirname(file)))
    throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);
  const started = performance.now();
  const partial = `${file}.partial-${process.pid}`;
  // Created empty and private first: VACUUM INTO fills an empty file, and the umask would
  // otherwise leave the copy (password hashes, sessions) readable by every account.
  fs.closeSync(fs.openSync(partial, 'wx', 0o600));
  try {
    const db = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      // The server's commits are short; a checkpoint's moment of exclusive access is waited out.
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
    checkCopy(partial);
    fsyncFile(partial);
    fs.renameSync(partial, file);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    if (err instanceof BackupError) throw err;
    throw new BackupError(`The backup failed: ${(err as Error).message}`);
  }
  return { file, bytes: fs.statSync(file).size, ms: Math.round(performance.now() - started) };
}

/**
 * Puts a backup in place as DATA_DIR's database, with no server running on DATA_DIR (its lock
 * is taken for the while, so a server cannot start meanwhile, and one that runs makes this
 * refuse). The database there, with its -wal and -shm, is moved aside (never deleted) under
 * `pawguard.db.before-restore-<time>`: a WAL left beside the restored file would be read into
 * it. The next start runs any newer migrations on the restored data.
 */
export function restoreSqlite(
  dataDir: string,
  backup: string,
  now: Date = new Date(),
): { file: string; aside: string | null } {
  const from = path.resolve(backup);
  if (!fs.existsSync(from)) throw new BackupError(`There is no file ${from}.`);
  checkCopy(from);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = lockDataDir(dataDir);
  const file = sqliteFile(dataDir);
  // The copy is made whole first: until it is, the database there stays as it was.
  const partial = `${file}.restoring-${process.pid}`;
  const moved: [string, string][] = [];
  try {
    fs.copyFileSync(from, partial, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(partial, 0o600);
    fsyncFile(partial);
    let aside: string | null = null;
    if (fs.existsSync(file)) {
      aside = `${file}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
      for (const suffix of ['-wal', '-shm', '']) {
        if (!fs.existsSync(file + suffix)) continue;
        fs.renameSync(file + suffix, aside + suffix);
        moved.push([file + suffix, aside + suffix]);
      }
    }
    fs.renameSync(partial, file);
    return { file, aside };
  } catch (err) {
    // Nothing half done: the old database (and its WAL) go back where they were.
    fs.rmSync(partial, { force: true });
    for (const [original, aside] of moved.reverse()) fs.renameSync(aside, original);
    throw new BackupError(
      `The restore failed, and the database was left as it was: ${(err as Error).message}`,
    );
  } finally {
    lock.release();
  }
}

/** A PawGuard database, whole: SQLite's own check, and the migrations' table is there. */
function checkCopy(file: string): void {
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${file} is damaged (${String(check)}).`);
    const migrations = db
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name = ?")
      .get('kysely_migration') as { n: number };
    if (migrations.n === 0) throw new BackupError(`${file} is not a PawGuard database.`);
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a readable SQLite database (${(err as Error).message}).`);
  } finally {
    db?.close();
  }
}

/** Flushes a written file to disk before it is renamed into place. */
function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
