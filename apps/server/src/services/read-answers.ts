/**
 * Answers of the heavy reads (history, back-test), kept until the collar's readings change.
 *
 * A collar's rollups change only in the ingest transaction that stores its readings, and
 * that transaction moves the collar's `last_seen` and `readings_stored`; a release clears
 * them. So an answer read with a given (last_seen, readings_stored) of the row the caller was
 * authorised against stays true until the row says otherwise, on every instance: the stamp
 * comes from the database, not from this process. Callers looping on the same history cost
 * the server a row read, not a rollup scan (issue "Bounded under abuse", RES-8).
 *
 * Bounded: at most MAX_ANSWERS entries, the oldest out first. An entry holds one answer per
 * window; the key names the window (range and its aligned bounds), so a window that moved on
 * is a miss, never a stale answer.
 */
const MAX_ANSWERS = 500;

export type ReadStamp = { lastSeen: string | null; readingsStored: number };

const sameStamp = (a: ReadStamp, b: ReadStamp) =>
  a.lastSeen === b.lastSeen && a.readingsStored === b.readingsStored;

export class ReadAnswers<T> {
  private readonly answers = new Map<string, { stamp: ReadStamp; value: T }>();

  constructor(private readonly max = MAX_ANSWERS) {}

  /** The answer for `key` read at `stamp`, computed by `read` when none is kept. */
  async get(key: string, stamp: ReadStamp, read: () => Promise<T>): Promise<T> {
    const kept = this.answers.get(key);
    if (kept && sameStamp(kept.stamp, stamp)) return kept.value;
    const value = await read();
    // Oldest first out (a Map keeps insertion order; a key written again moves to the end).
    this.answers.delete(key);
    if (this.answers.size >= this.max) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, { stamp, value });
    return value;
  }

  get size(): number {
    return this.answers.size;
  }
}
