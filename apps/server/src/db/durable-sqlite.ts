import fs from 'node:fs/promises';
import type SQLite from 'better-sqlite3';
import {
  SqliteDialect,
  type AbortableOperationOptions,
  type CompiledQuery,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * Makes every SQLite commit durable before Kysely reports it done, without blocking the event
 * loop for the disk flush (docs/decisions/0020).
 *
 * The connection runs with synchronous=NORMAL, so COMMIT itself only writes the WAL to the
 * page cache (microseconds). Then, before the statement's promise resolves, the WAL file is
 * fsync'ed on libuv's thread pool. fsync flushes the file, whichever descriptor wrote it, so
 * once it returns every frame committed before it began is on disk: the same guarantee as
 * synchronous=FULL ("a commit is on disk before anyone is told"), while other requests run.
 * Commits that arrive during one flush share the next one.
 */
export class WalSync {
  private handle: fs.FileHandle | null = null;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** Flushes done, for tests and figures. */
  flushes = 0;

  constructor(private readonly walPath: string) {}

  /** Resolves once everything written before this call is on disk. */
  sync(): Promise<void> {
    if (!this.running) return this.start();
    // A flush already under way may have begun before our write: wait for the one after it.
    this.next ??= this.running.then(() => {
      this.next = null;
      return this.start();
    });
    return this.next;
  }

  private start(): Promise<void> {
    const run = (async () => {
      this.handle ??= await fs.open(this.walPath, 'r');
      await this.handle.sync();
      this.flushes++;
    })();
    this.running = run.finally(() => {
      if (this.running === guarded) this.running = null;
    });
    const guarded = this.running;
    return run;
  }

  async close(): Promise<void> {
    await this.running?.catch(() => undefined);
    await this.handle?.close();
    this.handle = null;
  }
}

/**
 * The SQLite dialect with a connection that, after any statement that ended a write outside a
 * transaction (an autocommit INSERT, or a COMMIT), waits for the WAL flush.
 */
export class DurableSqliteDialect extends SqliteDialect {
  constructor(
    private readonly conf: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
    private readonly wal: WalSync,
    private readonly wrote: { pending: boolean },
    /** Told after each write commit is on disk (the checkpointer counts them). */
    private readonly committed: () => void = () => undefined,
  ) {
    super(conf);
  }

  override createDriver(): Driver {
    const { sqlite, wal, wrote, committed } = this;
    return new (class extends SqliteDriver {
      // On a full disk or an I/O error SQLite may roll the transaction back itself: a ROLLBACK
      // then fails, and its error ("no transaction is active") would hide the one that says
      // what happened (SQLITE_FULL: 503, not 500).
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (sqlite.inTransaction) await super.rollbackTransaction(connection);
      }

      override async acquireConnection(): Promise<DatabaseConnection> {
        const inner = await super.acquireConnection();
        return {
          async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions) {
            const result = await inner.executeQuery<R>(query, options);
            if (wrote.pending && !sqlite.inTransaction) {
              wrote.pending = false;
              await wal.sync();
              committed();
            }
            return result;
          },
          streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
        };
      }
    })(this.conf);
  }
}
