import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { DialectHandle } from './handle.js';
import { DurableSqliteDialect, WalSync } from './durable-sqlite.js';
import { sqliteFile } from './data-dir-lock.js';
import { WalCheckpointer, WRITER_CHECKPOINT_PAGES } from './wal-checkpointer.js';
import { SqliteReader } from './sqlite-reader.js';

/** SQLite in DATA_DIR (the default): WAL, durable commits, checkpoints beside the server. */
export function openSqlite(dataDir: string): DialectHandle {
  const file = sqliteFile(dataDir);
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the same mode,
  // and the process umask (often 022) would otherwise leave them readable by every account.
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // A commit is on disk before anyone is told it happened: COMMIT writes the WAL, and the
  // driver flushes it on the thread pool before the commit's promise resolves (durable-sqlite.ts).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
  const wal = new WalSync(`${file}-wal`);
  // Checkpoints run beside the server (wal-checkpointer.ts, decision 0026).
  const checkpointer = new WalCheckpointer(file);
  // History and the back-test read on a connection of their own, in a thread (decision 0047).
  const reader = new SqliteReader(file);
  const wrote = { pending: false };
  const db = new Kysely<Database>({
    dialect: new DurableSqliteDialect(
      { database: withStatementCache(sqlite, wrote) },
      sqlite,
      wal,
      wrote,
      () => checkpointer.committed(),
    ),
  });
  return {
    db,
    dialect: 'sqlite',
    wal,
    checkpointer,
    reader,
    close: async () => {
      // The reader first: the writer's connection, closing last, checkpoints the WAL into the
      // database file and removes it (a connection closing beside another open one cannot).
      await reader.close();
      await db.destroy();
      await checkpointer.close();
      await wal.close();
      // Kysely closes the file only if it ever ran a query; the lock must go either way.
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * Kysely prepares every query afresh; preparing costs more than running most of ours (a key
 * look-up, a session check). Statements are kept by their SQL text, the least recently used
 * dropped past `max`. Safe because better-sqlite3 runs one statement at a time and we never
 * stream (an open iterator would hold its statement).
 */
function withStatementCache(sqlite: SQLite.Database, wrote: { pending: boolean }, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      // Prepared right before it runs: a statement that writes makes the next commit flush.
      if (!stmt.readonly) wrote.pending = true;
      return stmt;
    },
  };
}
