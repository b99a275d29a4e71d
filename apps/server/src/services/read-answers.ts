/**
 * Answers of the heavy reads (history, back-test), kept until the collar's readings change.
 *
 * A collar's rollups change only in the ingest transaction that stores its readings, and
 * that transaction moves the collar's `last_seen` and `readings_stored`; a release clears
 * them. So an answer read with a given (last_seen, readings_stored) of the row the caller was
 * authorised against stays true until the row says otherwise, on every instance: the stamp
 * comes from the database, not from this process. A release also drops the collar's answers
 * here and, through the bus, on every instance (`forget`), so a collar released and reporting
 * again within one millisecond is not mistaken for the same. Callers looping on the same
 * history cost the server a row read, not a rollup scan (issue "Bounded under abuse", RES-8).
 *
 * One entry per collar and question (a range, a number of days): a window that has moved on
 * replaces its entry instead of leaving one behind. Bounded by weight (a history's buckets),
 * the oldest out first.
 */
export type ReadStamp = { lastSeen: string | null; readingsStored: number };

type Kept<T> = { stamp: ReadStamp; window: string; value: T; weight: number };

export class ReadAnswers<T> {
  private readonly answers = new Map<string, Kept<T>>();
  private weight = 0;

  constructor(
    private readonly weigh: (value: T) => number,
    private readonly maxWeight: number,
  ) {}

  /**
   * The answer to `question` about `deviceUuid` over `window` (its aligned bounds), read at
   * `stamp`, computed by `read` when none is kept.
   */
  async get(
    deviceUuid: string,
    question: string,
    window: string,
    stamp: ReadStamp,
    read: () => Promise<T>,
  ): Promise<T> {
    const key = `${deviceUuid} ${question}`;
    const kept = this.answers.get(key);
    if (
      kept &&
      kept.window === window &&
      kept.stamp.lastSeen === stamp.lastSeen &&
      kept.stamp.readingsStored === stamp.readingsStored
    )
      return kept.value;
    const value = await read();
    this.drop(key);
    const weight = Math.max(1, this.weigh(value));
    // Oldest first out (a Map keeps insertion order; a key written again moves to the end).
    for (const k of this.answers.keys()) {
      if (this.weight + weight <= this.maxWeight) break;
      this.drop(k);
    }
    this.answers.set(key, { stamp, window, value, weight });
    this.weight += weight;
    return value;
  }

  /** Drops a collar's answers (it was released), or every answer (events may have been missed). */
  forget(deviceUuid?: string): void {
    if (deviceUuid === undefined) {
      this.answers.clear();
      this.weight = 0;
      return;
    }
    for (const key of this.answers.keys()) if (key.startsWith(`${deviceUuid} `)) this.drop(key);
  }

  get size(): number {
    return this.answers.size;
  }

  private drop(key: string): void {
    const kept = this.answers.get(key);
    if (!kept) return;
    this.answers.delete(key);
    this.weight -= kept.weight;
  }
}
