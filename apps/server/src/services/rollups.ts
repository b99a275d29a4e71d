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
   * `fresh`: per collar, the readings this batch inserted. One read of the buckets they touch
   * and one write of them for the whole batch, however many collars it holds.
   */
  async record(trx: Transaction<Database>, fresh: Map<string, ReadingRow[]>): Promise<void> {
    const touched: { deviceId: string; minutes: Buckets; hours: Buckets }[] = [];
    const keys: RollupKey[] = [];
    for (const [deviceId, rows] of fresh) {
      if (rows.length === 0) continue;
      const sorted = [...rows].sort((a, b) => Number(a.recorded_at) - Number(b.recorded_at));
      const minutes = byBucket(sorted, MINUTE_S);
      const hours = byBucket(sorted, HOUR_S);
      touched.push({ deviceId, minutes, hours });
      for (const at of minutes.keys()) keys.push([deviceId, MINUTE_S, at]);
      for (const at of hours.keys()) keys.push([deviceId, HOUR_S, at]);
    }
    if (keys.length === 0) return;
    const stored = new Map<string, RollupSummary>();
    for (const row of await this.d.rollups.at(keys, trx))
      stored.set(
        key(row.device_id, Number(row.bucket_seconds), Number(row.bucket_at)),
        fromRollupRow(row),
      );

    const rows: RollupRow[] = [];
    // Hours a backlog lands inside are summed up again from their minutes, written first.
    const again: { deviceId: string; at: number; readings: ReadingRow[] }[] = [];
    for (const { deviceId, minutes, hours } of touched) {
      for (const [at, readings] of minutes) {
        const before = stored.get(key(deviceId, MINUTE_S, at));
        const s = await this.extended(before, readings, async () =>
          summarise(
            await this.d.readings.forRollup(deviceId, at, at + MINUTE_S * 1000, trx),
            readingSummary,
          ),
        );
        rows.push(toRollupRow(deviceId, MINUTE_S, at, s));
      }
      for (const [at, readings] of hours) {
        const before = stored.get(key(deviceId, HOUR_S, at));
        if (before && Number(readings[0]!.recorded_at) <= before.lastAt)
          again.push({ deviceId, at, readings });
        else rows.push(toRollupRow(deviceId, HOUR_S, at, this.appended(before, readings)));
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
      }
    }
    await this.d.rollups.upsert(rows, trx);
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
