import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ReadingRow, ReadingsRepository } from '../repositories/readings-repository.js';
import type { RollupsRepository } from '../repositories/rollups-repository.js';
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

function byBucket(rows: ReadingRow[], seconds: number): Map<number, ReadingRow[]> {
  const out = new Map<number, ReadingRow[]>();
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

  /** `fresh`: the readings this batch inserted for the collar, oldest first. */
  async record(trx: Transaction<Database>, deviceId: string, fresh: ReadingRow[]): Promise<void> {
    if (fresh.length === 0) return;
    const minutes = byBucket(fresh, MINUTE_S);
    const hours = byBucket(fresh, HOUR_S);
    const [storedMinutes, storedHours] = await Promise.all([
      this.stored(trx, deviceId, MINUTE_S, [...minutes.keys()]),
      this.stored(trx, deviceId, HOUR_S, [...hours.keys()]),
    ]);
    const rows: RollupRow[] = [];
    for (const [at, readings] of minutes) {
      const s = await this.extended(storedMinutes.get(at), readings, async () =>
        summarise(
          await this.d.readings.forRollup(deviceId, at, at + MINUTE_S * 1000, trx),
          readingSummary,
        ),
      );
      rows.push(toRollupRow(deviceId, MINUTE_S, at, s));
    }
    // Hours summed up again read their minutes: those are written first.
    const again: [number, ReadingRow[]][] = [];
    const hourRows: RollupRow[] = [];
    for (const [at, readings] of hours) {
      const before = storedHours.get(at);
      if (before && Number(readings[0]!.recorded_at) <= before.lastAt) again.push([at, readings]);
      else hourRows.push(toRollupRow(deviceId, HOUR_S, at, this.appended(before, readings)));
    }
    if (again.length) {
      await this.d.rollups.upsert(rows, trx);
      rows.length = 0;
      for (const [at, readings] of again) {
        const s = await this.extended(storedHours.get(at), readings, async () =>
          summarise(
            await this.d.rollups.between(deviceId, MINUTE_S, at, at + HOUR_S * 1000, trx),
            fromRollupRow,
          ),
        );
        hourRows.push(toRollupRow(deviceId, HOUR_S, at, s));
      }
    }
    await this.d.rollups.upsert(rows.concat(hourRows), trx);
  }

  private async stored(
    trx: Transaction<Database>,
    deviceId: string,
    seconds: number,
    starts: number[],
  ): Promise<Map<number, RollupSummary>> {
    const rows = await this.d.rollups.at(deviceId, seconds, starts, trx);
    return new Map(rows.map((r) => [Number(r.bucket_at), fromRollupRow(r)]));
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
