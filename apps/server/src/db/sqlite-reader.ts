import type { Worker } from 'node:worker_threads';
import { endDbWorker, startDbWorker } from './db-worker.js';
import type { CompiledQuery } from 'kysely';

/**
 * Runs reads on a connection of their own, in a worker thread, so that a long one (summing a
 * week of rollups for a chart) never holds the event loop that acknowledges readings
 * (decision 0047). SQLite's WAL lets this connection read what is committed while the server
 * writes; each query sees the database as of its start.
 *
 * For history and the back-test alone: everything else is short, or must read inside a
 * transaction of the server's own. If the worker fails, its queries run on the server's
 * connection from then on, as they did before (`fallback`), and `onError` is told once.
 */
export class SqliteReader {
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();
  private failed = false;
  private closing: Promise<void> | null = null;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (rows: unknown[]) => void; reject: (err: Error) => void }
  >();
  /** Queries answered by the worker, for tests and figures. */
  answered = 0;
  /** Told once when the worker failed: reads then run on the server's own connection. */
  onError: ((err: unknown) => void) | null = null;

  constructor(private readonly file: string) {}

  /**
   * The rows of a compiled read, from the worker; from `fallback` (the server's connection)
   * once the worker has failed or is closing, and for a query it could not answer: an error
   * from its connection (broken, read-only, not a database) is taken as the thread failing,
   * and the server's connection gives the answer, or the error, it would have given anyway.
   */
  async all<R>(query: CompiledQuery<R>, fallback: () => Promise<R[]>): Promise<R[]> {
    if (this.failed || this.closing) return fallback();
    let worker: Worker;
    try {
      worker = this.worker ??= this.startWorker();
    } catch (err) {
      this.fail(err);
      return fallback();
    }
    const id = ++this.nextId;
    try {
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        this.waiting.set(id, { resolve, reject });
        worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
      });
      this.answered++;
      return rows as R[];
    } catch {
      return fallback();
    }
  }

  private startWorker(): Worker {
    const worker = startDbWorker(WORKER_SOURCE, this.file);
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on(
      'message',
      (m: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
        const w = this.waiting.get(m.id);
        if (!w) return;
        this.waiting.delete(m.id);
        if (!m.error) return w.resolve(m.rows ?? []);
        const err = Object.assign(new Error(m.error.message), { code: m.error.code });
        w.reject(err);
        this.fail(err);
      },
    );
    worker.on('error', (err) => this.fail(err));
    worker.on('messageerror', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`the reading thread stopped (exit code ${code})`));
      this.rejectWaiting();
    });
    return worker;
  }

  /** From now on every read runs on the server's connection; told once. */
  private fail(err: unknown): void {
    this.rejectWaiting();
    if (this.failed) return;
    this.failed = true;
    if (!this.closing) this.onError?.(err);
    void this.worker?.terminate();
  }

  /** Reads waiting on the worker are answered by their fallback instead. */
  private rejectWaiting(): void {
    for (const w of this.waiting.values()) w.reject(new Error('the reading thread stopped'));
    this.waiting.clear();
  }

  /**
   * Ends the worker once it has answered the reads sent to it and closed its connection.
   * Called before the server's own connection closes, so that the last connection to close
   * is the writer's, which then checkpoints the WAL into the database file and removes it.
   */
  close(): Promise<void> {
    const worker = this.worker;
    this.closing ??= worker && !this.failed ? endDbWorker(worker) : this.exited;
    return this.closing;
  }
}

// The worker's script (db-worker.ts). Statements are kept by their text (the two reads have a
// few shapes), the oldest dropped past 100.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const statements = new Map();
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    process.exit(0);
  }
  const { id, sql, parameters } = message;
  try {
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size >= 100) statements.delete(statements.keys().next().value);
      statements.set(sql, (stmt = db.prepare(sql)));
    }
    parentPort.postMessage({ id, rows: stmt.all(...parameters) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err && err.message), code: err && err.code } });
  }
});
`;
