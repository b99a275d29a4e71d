/**
 * Answers of the heavy reads (history, back-test), kept until the collar's readings change.
 *
 * A collar's rollups change only in the ingest transaction that stores its readings, and
 * that transaction moves the collar's `last_seen` and `readings_stored`; a release clears
 * them. So an answer read with a given stamp (owner, last_seen, readings_stored) of the row
 * the caller was authorised against stays true until the row says otherwise, on every
 * instance: the stamp comes from the database, not from this process. A release also drops
 * the collar's answers here and, through the bus, on every instance (`forget`), and a read
 * under way when that happens does not keep what it read. Callers looping on the same history
 * cost the server a row read, not a rollup scan (issue "Bounded under abuse", RES-8).
 *
 * One entry per collar and question (a range, a number of days): a window that has moved on
 * replaces its entry instead of leaving one behind. Bounded by weight (a history's buckets),
 * the oldest out first.
 */
export type ReadStamp = { owner: string | null; lastSeen: string | null; readingsStored: number };

type Kept<T> = { stamp: ReadStamp; window: string; value: T; weight: number };

const sameStamp = (a: ReadStamp, b: ReadStamp) =>
  a.owner === b.owner && a.lastSeen === b.lastSeen && a.readingsStored === b.readingsStored;

export class ReadAnswers<T> {
  /** Per collar, its answers by question. */
  private readonly byDevice = new Map<string, Map<string, Kept<T>>>();
  /** Every entry, oldest first (a Map keeps insertion order), for eviction. */
  private readonly order = new Map<Kept<T>, string>();
  /** Moved by `forget`: a read that began before it keeps nothing. */
  private readonly generation = new Map<string, number>();
  private epoch = 0;
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
    const kept = this.byDevice.get(deviceUuid)?.get(question);
    if (kept && kept.window === window && sameStamp(kept.stamp, stamp)) return kept.value;
    const epoch = this.epoch;
    const generation = this.generation.get(deviceUuid);
    const value = await read();
    // Forgotten while it was read (a release, missed events): answered, never kept.
    if (epoch !== this.epoch || generation !== this.generation.get(deviceUuid)) return value;
    this.drop(deviceUuid, question);
    const entry: Kept<T> = { stamp, window, value, weight: Math.max(1, this.weigh(value)) };
    for (const [oldest, device] of this.order) {
      if (this.weight + entry.weight <= this.maxWeight) break;
      this.dropEntry(device, oldest);
    }
    let answers = this.byDevice.get(deviceUuid);
    if (!answers) this.byDevice.set(deviceUuid, (answers = new Map()));
    answers.set(question, entry);
    this.order.set(entry, deviceUuid);
    this.weight += entry.weight;
    return value;
  }

  /** Drops a collar's answers (it was released), or every answer (events may have been missed). */
  forget(deviceUuid?: string): void {
    if (deviceUuid === undefined) {
      this.epoch++;
      this.generation.clear();
      this.byDevice.clear();
      this.order.clear();
      this.weight = 0;
      return;
    }
    // Only collars with a read kept or under way need a generation; a bounded map of them.
    if (this.generation.size >= 100_000) {
      this.epoch++;
      this.generation.clear();
    }
    this.generation.set(deviceUuid, (this.generation.get(deviceUuid) ?? 0) + 1);
    for (const question of [...(this.byDevice.get(deviceUuid)?.keys() ?? [])])
      this.drop(deviceUuid, question);
  }

  /** Answers kept, and their weight. */
  get size(): { answers: number; weight: number } {
    return { answers: this.order.size, weight: this.weight };
  }

  private drop(deviceUuid: string, question: string): void {
    const kept = this.byDevice.get(deviceUuid)?.get(question);
    if (kept) this.dropEntry(deviceUuid, kept);
  }

  private dropEntry(deviceUuid: string, entry: Kept<T>): void {
    const answers = this.byDevice.get(deviceUuid);
    if (!answers) return;
    for (const [q, kept] of answers)
      if (kept === entry) {
        answers.delete(q);
        break;
      }
    if (answers.size === 0) this.byDevice.delete(deviceUuid);
    this.order.delete(entry);
    this.weight -= entry.weight;
  }
}
