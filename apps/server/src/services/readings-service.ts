import {
  BacktestTally,
  DEFAULT_PREFERENCES,
  asVitalsStatus,
  type BacktestResponse,
  HISTORY_MAX_BUCKETS,
  HISTORY_RANGES,
  LIMITS,
  type History,
  type HistoryRange,
  type Reading,
  type ReadingsQuery,
  type User,
  type VitalsQuery,
} from '@pawguard/shared';
import type { ReadingsRepository } from '../repositories/readings-repository.js';
import type { DeviceService } from './device-service.js';
import type { PreferencesService } from './preferences-service.js';
import type { Clock } from './clock.js';
import { toReading } from './reading-mapper.js';

/** Bucket widths a chart reads well in (seconds); the smallest that keeps ≤ 500 buckets wins. */
const BUCKET_STEPS_S = [5, 10, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600];

export function bucketSeconds(rangeMs: number): number {
  const wanted = rangeMs / 1000 / HISTORY_MAX_BUCKETS;
  return BUCKET_STEPS_S.find((s) => s >= wanted) ?? BUCKET_STEPS_S.at(-1)!;
}

/** Readings read per query by the back-test. */
const BACKTEST_PAGE = 5000;

const stat = (min: number | null, avg: number | null, max: number | null) =>
  min === null || avg === null || max === null
    ? null
    : { min: Number(min), avg: Math.round(Number(avg) * 100) / 100, max: Number(max) };

/**
 * The read side of readings, for the device's owner or an admin (another user's device
 * answers 404, as every device call does).
 */
export class ReadingsService {
  constructor(
    private readonly d: {
      readings: ReadingsRepository;
      devices: DeviceService;
      preferences: PreferencesService;
      clock: Clock;
    },
  ) {}

  async page(
    actor: User,
    id: string,
    q: VitalsQuery,
  ): Promise<{ vitals: Reading[]; total: number }> {
    const device = await this.d.devices.get(actor, id);
    const [rows, total] = await Promise.all([
      this.d.readings.page(id, q.limit, q.offset),
      this.d.readings.count(id),
    ]);
    return { vitals: rows.map((r) => toReading(r, device.device_id)), total };
  }

  async latest(actor: User, id: string): Promise<Reading | null> {
    const device = await this.d.devices.get(actor, id);
    const row = await this.d.readings.latest(id);
    return row ? toReading(row, device.device_id) : null;
  }

  /** The spec's realtime-database view: a map keyed by reading id, oldest first. */
  async map(
    actor: User,
    id: string,
    q: ReadingsQuery,
  ): Promise<Record<string, Reading & { deviceId: string }>> {
    const device = await this.d.devices.get(actor, id);
    let rows;
    if (q.latest) {
      const row = await this.d.readings.latest(id);
      rows = row ? [row] : [];
    } else {
      const from = q.from ? Date.parse(q.from) : 0;
      const to = q.to ? Date.parse(q.to) : this.d.clock.now().getTime() + 5 * 60_000;
      // The newest page of the window, oldest first; a wider window is narrowed with from and to.
      rows = (await this.d.readings.newestBetween(id, from, to, LIMITS.readingsPageSize)).reverse();
    }
    const out: Record<string, Reading & { deviceId: string }> = {};
    for (const row of rows) {
      const reading = toReading(row, device.device_id);
      out[reading.id] = { ...reading, deviceId: device.device_id };
    }
    return out;
  }

  async history(actor: User, id: string, range: HistoryRange): Promise<History> {
    const device = await this.d.devices.get(actor, id);
    const rangeMs = HISTORY_RANGES[range];
    const bucketS = bucketSeconds(rangeMs);
    const bucketMs = bucketS * 1000;
    const now = this.d.clock.now().getTime();
    const to = Math.ceil((now + 1) / bucketMs) * bucketMs;
    const from = to - Math.ceil(rangeMs / bucketMs) * bucketMs;
    const [rows, prefs] = await Promise.all([
      this.d.readings.history(id, from, to, bucketMs),
      device.user_id ? this.d.preferences.get(device.user_id) : null,
    ]);
    return {
      range,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      bucket_seconds: bucketS,
      thresholds: {
        warning: prefs?.temperature_threshold ?? DEFAULT_PREFERENCES.temperature_threshold,
        critical:
          prefs?.critical_temperature_threshold ??
          DEFAULT_PREFERENCES.critical_temperature_threshold,
      },
      buckets: rows.map((r) => ({
        t: new Date(from + Number(r.bucket) * bucketMs).toISOString(),
        count: Number(r.count),
        temperature: stat(r.t_min, r.t_avg, r.t_max),
        humidity: stat(r.h_min, r.h_avg, r.h_max),
        heart_rate: stat(r.hr_min, r.hr_avg, r.hr_max),
      })),
    };
  }

  /**
   * The heat-risk back-test (GET /api/devices/{id}/risk/backtest): how often the plain
   * thresholds, and the thresholds with the model beside them, would have alerted over the
   * last `days`. Read a page at a time, so a month of readings never sits in memory at once.
   */
  async backtest(actor: User, id: string, days: number): Promise<BacktestResponse> {
    await this.d.devices.get(actor, id);
    const to = this.d.clock.now().getTime();
    const from = to - days * 86_400_000;
    const tally = new BacktestTally();
    let after = from - 1;
    let count = 0;
    for (;;) {
      const rows = await this.d.readings.levelsAfter(id, after, to, BACKTEST_PAGE);
      for (const r of rows)
        tally.add({
          at: Number(r.recorded_at),
          status: asVitalsStatus(r.status) ?? 'SAFE',
          risk_band: asVitalsStatus(r.risk_band),
        });
      count += rows.length;
      if (rows.length < BACKTEST_PAGE) break;
      after = Number(rows.at(-1)!.recorded_at);
    }
    return {
      days,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      readings: count,
      ...tally.result(),
    };
  }
}
