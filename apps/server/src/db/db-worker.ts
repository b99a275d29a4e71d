import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * A worker thread with a connection of its own to the SQLite `file`, running `source`: plain
 * JavaScript evaluated as the worker's script, so the same text serves the sources (tests) and
 * the bundle, which have no worker file to point at. It is given better-sqlite3's path, the very
 * module the server uses, and the file as `workerData`; it must answer 'close' by closing its
 * connection and exiting. It never keeps the process alive: `endDbWorker` ends it on shutdown.
 * The WAL checkpointer and the reader of history and the back-test are such workers.
 */
export function startDbWorker(source: string, file: string): Worker {
  const worker = new Worker(source, {
    eval: true,
    workerData: { driver: require.resolve('better-sqlite3'), file },
  });
  worker.unref();
  return worker;
}

/**
 * Ends a worker of `startDbWorker` once it has done what it was sent and closed its connection.
 * Kept alive until then: an unreferenced worker would let a process with nothing else to do exit
 * first, before the DATA_DIR lock is released.
 */
export function endDbWorker(worker: Worker): Promise<void> {
  return new Promise<void>((resolve) => {
    worker.ref();
    worker.once('exit', () => resolve());
    worker.postMessage('close');
  });
}
