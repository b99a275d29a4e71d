import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, openDatabase, type DbHandle } from '../../src/db/index.js';

const opened: DbHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<{ handle: DbHandle; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-wal-'));
  dirs.push(dataDir);
  const handle = await openDatabase({ dataDir });
  opened.push(handle);
  await handle.db.schema
    .createTable('probe')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('body', 'text')
    .execute();
  return { handle, dataDir };
}

/** `commits` write transactions of a few kilobytes each, as ingest makes them. */
async function writeCommits(handle: DbHandle, commits: number, from = 0): Promise<void> {
  for (let i = from; i < from + commits; i++) {
    await handle.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('probe' as never)
        .values({ id: i, body: `${i}:${'x'.repeat(3000)}` } as never)
        .execute();
    });
  }
}

/** What another process meets when it tries to take the lock file: 'SQLITE_BUSY' or 'taken'. */
function lockProbe(lockFile: string): string {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const D = require(process.argv[1]); const db = new D(process.argv[2]);
       db.pragma('busy_timeout = 0'); db.pragma('locking_mode = EXCLUSIVE');
       try { db.exec('BEGIN EXCLUSIVE; COMMIT;'); console.log('taken'); }
       catch (e) { console.log(e.code); }`,
      driver,
      lockFile,
    ],
    { encoding: 'utf8' },
  );
  return probe.stdout.trim();
}

describe('SQLite checkpoints beside the server', () => {
  it('are taken by the checkpointer as commits accumulate, and the WAL stays bounded', async () => {
    const { handle, dataDir } = await freshDatabase();
    await writeCommits(handle, 5_000);
    // Only the worker counts these: the writer's own checkpoints are SQLite's.
    expect(handle.checkpointer!.checkpoints).toBeGreaterThan(100);
    // The writer's backstop still lets SQLite start the WAL again from its beginning once it
    // passes 4,000 pages (16 MB): 5,000 commits of a few pages each would otherwise leave a
    // WAL of about 40 MB.
    expect(fs.statSync(path.join(dataDir, 'pawguard.db-wal')).size).toBeLessThan(20 * 2 ** 20);
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM probe`.execute(handle.db);
    expect(rows[0]!.n).toBe(5_000);
  });

  it('keep every commit across a close and a reopen', async () => {
    const { handle, dataDir } = await freshDatabase();
    await writeCommits(handle, 1_500);
    expect(handle.checkpointer!.started).toBe(true);
    await handle.close();
    opened.splice(opened.indexOf(handle), 1);
    const again = await openDatabase({ dataDir });
    opened.push(again);
    const { rows } = await sql<{ n: number; last: string }>`
      SELECT count(*) AS n, max(body) AS last FROM probe`.execute(again.db);
    expect(rows[0]!.n).toBe(1_500);
    await writeCommits(again, 10, 1_500);
  });

  it('never start a thread for a database that writes little', async () => {
    const { handle } = await freshDatabase();
    await writeCommits(handle, 200);
    expect(handle.checkpointer!.checkpoints).toBe(0);
    expect(handle.checkpointer!.started).toBe(false);
  });
});

describe('the DATA_DIR lock', () => {
  it('stays held by the first server after a second one in the same process was refused', async () => {
    const { dataDir } = await freshDatabase();
    await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    expect(lockProbe(path.join(dataDir, 'pawguard.lock'))).toBe('SQLITE_BUSY');
  });

  it('says plainly when the lock file cannot be taken', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-wal-'));
    dirs.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'pawguard.lock'));
    await expect(openDatabase({ dataDir })).rejects.toThrow(
      /Cannot take the lock .*pawguard\.lock .*DATA_DIR must be a folder this server can write to/,
    );
  });

  it('refuses another process while this one holds the folder, and is a file of its own', async () => {
    const { dataDir } = await freshDatabase();
    const lockFile = path.join(dataDir, 'pawguard.lock');
    expect(fs.statSync(lockFile).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${lockFile}-journal`)).toBe(false);
    expect(lockProbe(lockFile)).toBe('SQLITE_BUSY');
  });
});
