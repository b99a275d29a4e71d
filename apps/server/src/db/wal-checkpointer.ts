import type { Worker } from 'node:worker_threads';
import { endDbWorker, startDbWorker } from './db-worker.js';

/**
 * Copies the WAL back into the database file on a thread of its own (docs/decisions/0026).
 *
 * SQLite checkpoints on the connection that commits, once the WAL holds 1,000 pages: the
 * copy and the database file's fsync then ran on the event loop, 5–60 ms at a time, a few
 * times a second under heavy ingest — the acknowledgements' slowest percent waited for them.
 * Here a second connection in a worker thread does a PASSIVE checkpoint every `every`
 * commits: it copies what is committed and flushes the database file while the server goes
 * on (a PASSIVE checkpoint never waits for the writer nor makes it wait). The server's own
 * automatic checkpoint stays, at a larger size, as the backstop (WRITER_CHECKPOINT_PAGES).
 *
 * The worker starts once the database has seen START_AFTER_COMMITS commits, so a server that
 * writes little (and each test's database) never starts one.
 */
export class WalCheckpointer {
  private worker: Worker | null = null;
  private commits = 0;
  private busy = false;
  private again = false;
  private closing: Promise<void> | null = null;
  /** Checkpoints done, for tests and figures. */
  checkpoints = 0;
  /** Told when the worker failed: checkpoints then fall back to the writer's own. */
  onError: ((err: unknown) => void) | null = null;

  constructor(
    private readonly file: string,
    private readonly every = CHECKPOINT_EVERY_COMMITS,
  ) {}

  /** Whether the worker was ever started (it is only once a checkpoint is needed). */
  get started(): boolean {
    return this.worker !== null;
  }

  /** Called after each write commit; every `every` commits (past the first few) asks for a checkpoint. */
  committed(): void {
    if (++this.commits >= START_AFTER_COMMITS && this.commits % this.every === 0) this.request();
  }

  /** Asks for a checkpoint now (one at a time: a request during one runs once after it). */
  request(): void {
    if (this.closing) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    (this.worker ??= this.startWorker()).postMessage('checkpoint');
  }

  private startWorker(): Worker {
    const worker = startDbWorker(WORKER_SOURCE, this.file);
    worker.on('message', () => {
      this.checkpoints++;
      this.busy = false;
      if (this.again) {
        this.again = false;
        this.request();
      }
    });
    worker.on('error', (err) => {
      // The database is unharmed: the writer's own automatic checkpoint carries on alone.
      this.onError?.(err);
      this.closing ??= Promise.resolve();
    });
    worker.on('exit', (code) => {
      if (code !== 0 && !this.closing) {
        this.onError?.(new Error(`the WAL checkpointer stopped (exit code ${code})`));
        this.closing = Promise.resolve();
      }
    });
    return worker;
  }

  /** Ends the worker after the checkpoint under way, closing its connection first. */
  close(): Promise<void> {
    const worker = this.worker;
    this.closing ??= worker ? endDbWorker(worker) : Promise.resolve();
    return this.closing;
  }
}

/**
 * Commits before the worker starts: the migrations of a new database alone make about 60, and a
 * test's database a few hundred; a server under steady ingest passes this within a second.
 */
const START_AFTER_COMMITS = 1_000;

/**
 * Often enough that the worker, not the writer, copies nearly every page: 16 commits write
 * well under the writer's own threshold (WRITER_CHECKPOINT_PAGES) however large the batches.
 */
const CHECKPOINT_EVERY_COMMITS = 16;

/**
 * The writer's own automatic checkpoint (SQLite's default is 1,000 pages). Under steady
 * writes a PASSIVE checkpoint beside them rarely finds the WAL wholly copied, so SQLite could
 * never start the WAL again from its beginning; the writer's own checkpoint at this size
 * (16 MB) finds almost everything copied and flushed already, finishes the rest, and lets it.
 */
export const WRITER_CHECKPOINT_PAGES = 4_000;

// The worker's script (db-worker.ts).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
// Never wait: PASSIVE takes no lock the writer needs, and a busy checkpoint is simply skipped.
db.pragma('busy_timeout = 0');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    process.exit(0);
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    if (err.code !== 'SQLITE_BUSY') throw err;
  }
  parentPort.postMessage('done');
});
`;
