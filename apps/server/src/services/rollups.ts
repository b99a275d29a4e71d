import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ReadingRow, ReadingsRepository } from '../repositories/readings-repository.js';
import type { RollupKey, RollupsRepository } from '../repositories/rollups-repository.js';
import {
  HOUR_S,
  MINUTE_S,
  bucketStart,
  combineSummaries,
  fromRollupRow,
  readingSummary,
  summarise,
  toRollupRow,
  type RollupRow,
  type RollupSummary,
} from './rollup-summary.js';

/** Minute rollups are kept this long: the back-test's 30 days and a margin (hours: a year). */
export const MINUTE_ROLLUP_RETENTION_DAYS = 35;
export const HOUR_ROLLUP_RETENTION_DAYS = 366;

/** Collars whose newest buckets are kept in memory (two summaries each, about 2 KB). */
const NEWEST_CACHE = 10_000;
const WIDTHS = [MINUTE_S, HOUR_S];

/** A collar's newest rollup of each width: its start, and its summary when known. */
type Newest = Map<number, { at: number; s?: RollupSummary }>;

/** A collar's new readings by the bucket they fall in, oldest first. */
type Buckets = Map<number, ReadingRow[]>;

const key = (deviceId: string, seconds: number, at: number) => `${deviceId} ${seconds} ${at}`;

function byBucket(rows: ReadingRow[], seconds: number): Buckets {
  const out: Buckets = new Map();
  for (const row of rows) {
    const at = bucketStart(Number(row.recorded_at), seconds);
    const list = out.get(at);
    if (list) list.push(row);
    else out.set(at, [row]);
  }
  return out;
}

/**
 * Keeps each collar's minute and hour rollups in step with its readings, inside the ingest
 * transaction that stores them. Only readings the batch inserted count (a repeated
 * (device, time) inserts nothing, so a replay changes no bucket). A bucket the new readings
 * all follow is extended (its stored summary, then theirs: a row read, a row written); one a
 * backlog reading lands inside is summed up again in time order, a minute from its readings
 * and an hour from its minutes.
 */
export class RollupWriter {
  constructor(private readonly d: { readings: ReadingsRepository; rollups: RollupsRepository }) {}

  /**
   * Per collar, the newest minute and hour rollup stored (its start, and its summary when this
   * server wrote or read it), with the collar's `last_seen` as its batch left it: while the
   * collar's row still holds that `last_seen`, no other writer (another instance; a release,
   * which clears it) has touched its readings since. A bucket newer than the newest is not
   * stored, and the newest is known: live collars, which only ever extend their newest buckets
   * or open new ones, cost one upsert per commit and no read.
   */
  private readonly newest = new Map<string, { lastSeen: string; buckets: Newest }>();

  /**
   * `fresh`: per collar, the readings this batch inserted; `seen`: per collar of the batch, its
   * `last_seen` before the batch and as the batch writes it. At most one read of the newest
   * buckets of collars not known, one of the buckets not known, and one write, for the whole
   * batch however many collars it holds. Answers what to remember once it has committed.
   */
  async record(
    trx: Transaction<Database>,
    fresh: Map<string, ReadingRow[]>,
    seen: Map<string, { before: string | null; after: string }>,
  ): Promise<() => void> {
    const base = new Map<string, Newest>();
    for (const [deviceId, { before }] of seen) {
      const known = this.newest.get(deviceId);
      if (known && known.lastSeen === before) base.set(deviceId, new Map(known.buckets));
    }
    const touched: { deviceId: string; buckets: Map<number, Buckets> }[] = [];
    for (const [deviceId, rows] of fresh) {
      if (rows.length === 0) continue;
      const sorted = [...rows].sort((a, b) => Number(a.recorded_at) - Number(b.recorded_at));
      touched.push({ deviceId, buckets: new Map(WIDTHS.map((w) => [w, byBucket(sorted, w)])) });
    }
    const unknown = touched.map((t) => t.deviceId).filter((id) => !base.has(id));
    if (unknown.length)
      for (const r of await this.d.rollups.newestStarts(unknown, trx)) {
        const m: Newest = new Map();
        if (r.minute !== null) m.set(MINUTE_S, { at: Number(r.minute) });
        if (r.hour !== null) m.set(HOUR_S, { at: Number(r.hour) });
        base.set(r.device_uuid, m);
      }

    const stored = new Map<string, RollupSummary>();
    const keys: RollupKey[] = [];
    for (const { deviceId, buckets } of touched)
      for (const [w, byAt] of buckets)
        for (const at of byAt.keys()) {
          const newest = base.get(deviceId)?.get(w);
          // Newer than the newest stored: not stored.
          if (!newest || at > newest.at) continue;
          if (at === newest.at && newest.s) stored.set(key(deviceId, w, at), newest.s);
          else keys.push([deviceId, w, at]);
        }
    if (keys.length)
      for (const row of await this.d.rollups.at(keys, trx))
        stored.set(
          key(row.device_uuid, Number(row.bucket_seconds), Number(row.bucket_at)),
          fromRollupRow(row),
        );

    const written = new Map<string, Newest>();
    const keep = (deviceId: string, w: number, at: number, s: RollupSummary) => {
      let m = written.get(deviceId);
      if (!m) written.set(deviceId, (m = new Map()));
      const was = m.get(w);
      if (!was || at > was.at) m.set(w, { at, s });
    };
    const rows: RollupRow[] = [];
    // Hours a backlog lands inside are summed up again from their minutes, written first.
    const again: { deviceId: string; at: number; readings: ReadingRow[] }[] = [];
    for (const { deviceId, buckets } of touched) {
      for (const [at, readings] of buckets.get(MINUTE_S)!) {
        const before = stored.get(key(deviceId, MINUTE_S, at));
        const s = await this.extended(before, readings, async () =>
          summarise(
            await this.d.readings.forRollup(deviceId, at, at + MINUTE_S * 1000, trx),
            readingSummary,
          ),
        );
        rows.push(toRollupRow(deviceId, MINUTE_S, at, s));
        keep(deviceId, MINUTE_S, at, s);
      }
      for (const [at, readings] of buckets.get(HOUR_S)!) {
        const before = stored.get(key(deviceId, HOUR_S, at));
        if (before && Number(readings[0]!.recorded_at) <= before.lastAt)
          again.push({ deviceId, at, readings });
        else {
          const s = this.appended(before, readings);
          rows.push(toRollupRow(deviceId, HOUR_S, at, s));
          keep(deviceId, HOUR_S, at, s);
        }
      }
    }
    if (again.length) {
      await this.d.rollups.upsert(rows, trx);
      rows.length = 0;
      for (const { deviceId, at, readings } of again) {
        const before = stored.get(key(deviceId, HOUR_S, at));
        const s = await this.extended(before, readings, async () =>
          summarise(
            await this.d.rollups.between(deviceId, MINUTE_S, at, at + HOUR_S * 1000, trx),
            fromRollupRow,
          ),
        );
        rows.push(toRollupRow(deviceId, HOUR_S, at, s));
        keep(deviceId, HOUR_S, at, s);
      }
    }
    if (rows.length) await this.d.rollups.upsert(rows, trx);
    return () => this.remember(seen, base, written);
  }

  /** After the commit: each collar's newest buckets, as of the `last_seen` its batch wrote. */
  private remember(
    seen: Map<string, { before: string | null; after: string }>,
    base: Map<string, Newest>,
    written: Map<string, Newest>,
  ): void {
    for (const [deviceId, { after }] of seen) {
      this.newest.delete(deviceId);
      const buckets = base.get(deviceId);
      // Not known at the start of the batch: nothing known now either.
      if (!buckets) continue;
      for (const [w, b] of written.get(deviceId) ?? []) {
        const was = buckets.get(w);
        if (!was || b.at >= was.at) buckets.set(w, b);
      }
      // Oldest first out (a Map keeps insertion order; a collar seen again moves to the end).
      if (this.newest.size >= NEWEST_CACHE) this.newest.delete(this.newest.keys().next().value!);
      this.newest.set(deviceId, { lastSeen: after, buckets });
    }
  }

  private appended(before: RollupSummary | undefined, readings: ReadingRow[]): RollupSummary {
    const added = summarise(readings, readingSummary);
    return before ? combineSummaries(before, added) : added;
  }

  /**
   * A bucket with these readings added: extended when they all follow what it holds, else
   * summed up again from its parts (`again`). Parts retention already removed (raw readings
   * past READINGS_RETENTION_DAYS) cannot be summed again: then the readings are added as if
   * they followed (counts, sums, min and max exact; the order of levels approximate).
   */
  private async extended(
    before: RollupSummary | undefined,
    readings: ReadingRow[],
    again: () => Promise<RollupSummary>,
  ): Promise<RollupSummary> {
    if (!before || Number(readings[0]!.recorded_at) > before.lastAt)
      return this.appended(before, readings);
    const whole = await again();
    return whole.count >= before.count + readings.length ? whole : this.appended(before, readings);
  }
}
