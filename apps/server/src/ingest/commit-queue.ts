import type { ParsedReading, Reading } from '@pawguard/shared';

/**
 * One upload as it waits for its commits: a list of more than SLICE readings is stored in
 * slices, each in a commit of its own, oldest first; it is answered once its last slice has
 * committed.
 */
export interface Upload {
  deviceUuid: string;
  /** Its readings as the collar sent them (duplicates included). */
  readings: ParsedReading[];
  /** The upload's size, as its budget counts it. */
  bytes: number;
  /** The readings to store, slice by slice (one slice: the upload itself, as sent). */
  slices: ParsedReading[][];
  /** The next slice to commit. */
  next: number;
  /**
   * Sliced: for each reading as sent, its place among the readings stored slice by slice (a
   * repeated timestamp points at the first reading of that time); and the answers so far.
   */
  placeOf: number[] | null;
  answers: Reading[];
  /**
   * Sliced: every collar timestamp of the upload, and the earliest time a reading without one
   * may take next (after those of the slices before).
   */
  collarTimes: Set<number> | null;
  serverFloor: number;
  resolve: (stored: Reading[]) => void;
  reject: (err: unknown) => void;
}

/** What one commit stores of one upload: the whole upload, or one slice of it. */
export interface Job {
  deviceUuid: string;
  readings: ParsedReading[];
  upload: Upload;
  /** The first slice charges the owner's account for the whole upload; later slices nothing. */
  charge: { readings: number; bytes: number } | null;
}

/** What a commit answers for each of its jobs: the stored readings, or why not. */
export type JobResults = Map<Job, Reading[] | Error>;

/** An upload of more readings than this is a large one: at most one of them per commit. */
export const LARGE_UPLOAD = 100;

/**
 * A list of more readings than this is stored in slices of at most this many, each in a
 * commit of its own: a commit holds the event loop for a few milliseconds, not the ~40 of a
 * whole 1,000-reading list, and other collars' readings are committed between its slices.
 */
export const SLICE = 250;

export interface CommitQueueOptions {
  /**
   * Stores the jobs of one batch in one transaction and answers each job's result; throws
   * when the transaction failed (every job of the batch fails with it).
   */
  commit: (jobs: Job[], readings: number) => Promise<JobResults>;
  /** How long to gather readings into one commit when none is in progress (ms). */
  gatherMs?: number;
  /** A batch is committed at once when it holds this many readings. */
  maxBatch?: number;
}

/**
 * Durable group commit. Readings that arrive together are stored in one transaction; every
 * caller is answered only after that transaction has committed (SQLite synchronous=FULL,
 * PostgreSQL's fsync), so an acknowledged reading survives a crash. While one batch commits,
 * the next gathers: under load a commit carries many readings, and when idle a reading waits
 * at most `gatherMs` before its own.
 */
export class CommitQueue {
  private pending: Upload[] = [];
  private pendingReadings = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private committing: Promise<void> | null = null;
  private readonly gatherMs: number;
  private readonly maxBatch: number;

  constructor(private readonly o: CommitQueueOptions) {
    this.gatherMs = o.gatherMs ?? 2;
    this.maxBatch = o.maxBatch ?? 2000;
  }

  /**
   * Queues the readings of one device; resolves with what was stored, in the order given,
   * once the last of its commits is on disk.
   */
  submit(deviceUuid: string, readings: ParsedReading[], bytes: number): Promise<Reading[]> {
    return new Promise((resolve, reject) => {
      const upload = toUpload(deviceUuid, readings, bytes, resolve, reject);
      this.pending.push(upload);
      for (const slice of upload.slices) this.pendingReadings += slice.length;
      if (this.committing) return; // the running commit schedules the next one
      if (this.pendingReadings >= this.maxBatch) this.flushSoon(0);
      else this.flushSoon(this.gatherMs);
    });
  }

  /** Commits what is pending and waits for every commit in progress (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.committing || this.pending.length) {
      if (!this.committing) this.flushSoon(0);
      await this.committing;
      await new Promise((r) => setImmediate(r));
    }
  }

  /**
   * The next commit in `ms`, or (`nextTurn`) on the event loop's next turn: the next slice of
   * a sliced upload goes as soon as the readings that arrived meanwhile have been taken in.
   */
  private flushSoon(ms: number, nextTurn = false): void {
    if (this.immediate) return;
    if (this.timer) {
      if (ms > 0 && !nextTurn) return;
      clearTimeout(this.timer);
      this.timer = null;
    }
    const run = () => {
      this.timer = null;
      this.immediate = null;
      let midway = false;
      this.committing = this.commitPending()
        .then((m) => {
          midway = m;
        })
        .finally(() => {
          this.committing = null;
          // What arrived during the commit starts the next batch, which gathers for gatherMs
          // more: collars answered by this commit are sending their next readings right now,
          // and one commit for all of them costs one disk flush instead of many. The rest of a
          // sliced upload goes on at the next turn of the event loop, with what has arrived.
          if (this.pending.length)
            this.flushSoon(this.pendingReadings >= this.maxBatch ? 0 : this.gatherMs, midway);
        });
    };
    if (nextTurn) this.immediate = setImmediate(run);
    else this.timer = setTimeout(run, ms);
  }

  /** Commits a batch of what is pending; answers whether a sliced upload is midway. */
  private async commitPending(): Promise<boolean> {
    const { jobs, readings } = this.takeBatch();
    if (jobs.length === 0) return false;
    let results: JobResults;
    try {
      results = await this.o.commit(jobs, readings);
    } catch (err) {
      for (const job of jobs) this.fail(job.upload, err);
      return this.midway();
    }
    for (const [job, result] of results) {
      if (result instanceof Error) this.fail(job.upload, result);
      else answer(job.upload, result);
    }
    return this.midway();
  }

  /**
   * The next batch. At most maxBatch readings per commit: the transaction and its IN lists
   * stay bounded however much is waiting. In arrival order, except that a commit holds at most
   * one large upload or one slice of a list: another large one waits for a later commit, and
   * so does every later upload of its collar (a collar's uploads are stored in the order they
   * came, a sliced one's slices one commit after another), while other collars' small uploads
   * go on. A reading a second then waits behind one slice in progress, never behind a whole
   * list, nor a queue of other collars' 1,000-reading lists (bench/README, "Abuse").
   */
  private takeBatch(): { jobs: Job[]; readings: number } {
    const jobs: Job[] = [];
    const waiting: Upload[] = [];
    const held = new Set<string>();
    let count = 0;
    let large = false;
    for (const upload of this.pending) {
      const slice = upload.slices[upload.next]!;
      const n = slice.length;
      const isLarge = n > LARGE_UPLOAD || upload.slices.length > 1;
      if (
        jobs.length > 0 &&
        (held.has(upload.deviceUuid) || count + n > this.maxBatch || (isLarge && large))
      ) {
        held.add(upload.deviceUuid);
        waiting.push(upload);
        continue;
      }
      jobs.push({
        deviceUuid: upload.deviceUuid,
        readings: slice,
        upload,
        charge:
          upload.next === 0 ? { readings: upload.readings.length, bytes: upload.bytes } : null,
      });
      upload.next++;
      count += n;
      large ||= isLarge;
      // The rest of a sliced upload keeps its place, and its collar's later uploads wait for it.
      if (upload.next < upload.slices.length) {
        held.add(upload.deviceUuid);
        waiting.push(upload);
      }
    }
    this.pending = waiting;
    this.pendingReadings -= count;
    return { jobs, readings: count };
  }

  private midway(): boolean {
    return this.pending.some((u) => u.next > 0);
  }

  /**
   * An upload refused or not stored: its caller gets the error, and its slices not yet
   * committed are dropped (those committed stay stored: a retry stores the rest, once).
   */
  private fail(upload: Upload, err: unknown): void {
    if (upload.next < upload.slices.length) {
      const i = this.pending.indexOf(upload);
      if (i >= 0) {
        this.pending.splice(i, 1);
        for (let s = upload.next; s < upload.slices.length; s++)
          this.pendingReadings -= upload.slices[s]!.length;
      }
      upload.next = upload.slices.length;
    }
    upload.reject(err);
  }
}

/**
 * An upload as it waits: as sent when it fits one slice; otherwise its distinct readings in
 * time order (those without a timestamp last, as sent: they take the time of their commit),
 * cut in slices. The status chain, the heat-risk model and the alerts then see the slices'
 * readings in the order one commit would have judged them; a timestamp sent twice is stored
 * once and answers the first reading sent with it, as in one commit.
 */
function toUpload(
  deviceUuid: string,
  readings: ParsedReading[],
  bytes: number,
  resolve: (stored: Reading[]) => void,
  reject: (err: unknown) => void,
): Upload {
  const upload: Upload = {
    deviceUuid,
    readings,
    bytes,
    slices: [readings],
    next: 0,
    placeOf: null,
    answers: [],
    collarTimes: null,
    serverFloor: -Infinity,
    resolve,
    reject,
  };
  if (readings.length <= SLICE) return upload;
  const order = readings.map((_, i) => i);
  const key = (i: number) => readings[i]!.timestamp ?? Infinity;
  order.sort((a, b) => key(a) - key(b) || a - b);
  const distinct: ParsedReading[] = [];
  const placeOf = new Array<number>(readings.length);
  const collarTimes = new Set<number>();
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const at = readings[i]!.timestamp;
    if (at !== undefined && collarTimes.has(at)) {
      // The same time as the reading before it in time order: the first sent with it.
      placeOf[i] = placeOf[order[k - 1]!]!;
      continue;
    }
    if (at !== undefined) collarTimes.add(at);
    placeOf[i] = distinct.length;
    distinct.push(readings[i]!);
  }
  upload.slices = [];
  for (let i = 0; i < distinct.length; i += SLICE) upload.slices.push(distinct.slice(i, i + SLICE));
  upload.placeOf = placeOf;
  upload.collarTimes = collarTimes;
  return upload;
}

/** A slice committed: the upload is answered, in the order sent, once its last one has. */
function answer(upload: Upload, stored: Reading[]): void {
  if (!upload.placeOf) return upload.resolve(stored);
  for (const r of stored) upload.answers.push(r);
  if (upload.next < upload.slices.length) return;
  const answers = upload.answers;
  upload.resolve(upload.placeOf.map((p) => answers[p]!));
}

/**
 * The time a reading without a timestamp takes in a commit at `nowMs`: the commit's time,
 * after its upload's earlier slices, moved on by a millisecond while `taken` (this batch's
 * times of the collar) or its upload holds it.
 */
export function serverTime(job: Job, nowMs: number, taken: Map<number, unknown>): number {
  const { collarTimes, serverFloor } = job.upload;
  let at = Math.max(nowMs, serverFloor);
  while (taken.has(at) || collarTimes?.has(at)) at++;
  return at;
}

/** After a slice: the next slice's readings without a timestamp come after this one's. */
export function sliceStored(job: Job, times: number[]): void {
  if (!job.upload.collarTimes) return;
  for (let i = 0; i < times.length; i++)
    if (job.readings[i]!.timestamp === undefined)
      job.upload.serverFloor = Math.max(job.upload.serverFloor, times[i]! + 1);
}
