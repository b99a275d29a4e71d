import {
  DEFAULT_PREFERENCES,
  type BacktestResponse,
  type Device,
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
import type { RollupsRepository } from '../repositories/rollups-repository.js';
import type { DeviceService } from './device-service.js';
import type { PreferencesService } from './preferences-service.js';
import type { Clock } from './clock.js';
import { toReading } from './reading-mapper.js';
import { ReadAnswers, type ReadStamp } from './read-answers.js';
import {
  HOUR_S,
  MINUTE_S,
  backtestOf,
  bucketStart,
  fromRollupRow,
  summarise,
} from './rollup-summary.js';

/** Bucket widths a chart reads well in (seconds): whole minutes, so rollups make them. */
const BUCKET_STEPS_S = [60, 120, 180, 300, 600, 900, 1200, 1800, 3600];
/** A history reads at most about this many rollups: minutes up to a day, hours beyond. */
const MAX_ROLLUPS_READ = 2000;

/**
 * The width of a history's buckets, and of the rollups it is made from: the smallest width a
 * chart reads well in that keeps ≤ HISTORY_MAX_BUCKETS buckets, built from minute rollups
 * when the range holds at most MAX_ROLLUPS_READ of them, else from hours (1h: 60 s,
 * 24h: 180 s, 7d: 3600 s).
 */
export function historyResolution(rangeMs: number): { bucketS: number; rollupS: number } {
  const rollupS = rangeMs / (MINUTE_S * 1000) <= MAX_ROLLUPS_READ ? MINUTE_S : HOUR_S;
  const wanted = Math.max(rangeMs / 1000 / HISTORY_MAX_BUCKETS, rollupS);
  const bucketS = BUCKET_STEPS_S.find((s) => s >= wanted && s % rollupS === 0) ?? HOUR_S;
  return { bucketS, rollupS };
}

const stat = (min: number | null, sum: number, count: number, max: number | null) =>
  min === null || max === null || Number(count) === 0
    ? null
    : {
        min: Number(min),
        avg: Math.round((Number(sum) / Number(count)) * 100) / 100,
        max: Number(max),
      };

/**
 * History buckets and back-test figures, kept while the collar's readings stay as they are
 * (read-answers.ts): at most 100,000 buckets (a 24-hour history has 480; about 40 MB) and
 * 10,000 back-tests. Dropped for a collar whose credentials changed, on every instance
 * (device-change-effects.ts).
 */
export class KeptChartAnswers {
  readonly history = new ReadAnswers<History['buckets']>((b) => b.length, 100_000);
  readonly backtests = new ReadAnswers<Omit<BacktestResponse, 'days' | 'from' | 'to'>>(
    () => 1,
    10_000,
  );

  /** Drops the answers kept for a collar (released), or all of them (events were missed). */
  forget(deviceUuid?: string): void {
    this.history.forget(deviceUuid);
    this.backtests.forget(deviceUuid);
  }
}

/**
 * The read side of readings, for the device's owner or an admin (another user's device
 * answers 404, as every device call does).
 */
export class ReadingsService {
  constructor(
    private readonly d: {
      readings: ReadingsRepository;
      rollups: RollupsRepository;
      devices: DeviceService;
      preferences: PreferencesService;
      answers: KeptChartAnswers;
      clock: Clock;
    },
  ) {}

  async page(
    actor: User,
    id: string,
    q: VitalsQuery,
  ): Promise<{ vitals: Reading[]; total: number }> {
    // The total is the collar's own count of what it keeps, read with its row, not a count of
    // its readings: that would read millions of them on every page (RES-8).
    const { device, readingsStored } = await this.d.devices.withReadingsStored(actor, id);
    const rows = await this.d.readings.page(id, q.limit, q.offset);
    return { vitals: rows.map((r) => toReading(r, device.device_id)), total: readingsStored };
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
    const { device, stamp } = await this.visible(actor, id);
    const rangeMs = HISTORY_RANGES[range];
    const { bucketS, rollupS } = historyResolution(rangeMs);
    const bucketMs = bucketS * 1000;
    const now = this.d.clock.now().getTime();
    const to = Math.ceil((now + 1) / bucketMs) * bucketMs;
    const from = to - Math.ceil(rangeMs / bucketMs) * bucketMs;
    const [buckets, prefs] = await Promise.all([
      this.d.answers.history.get(device.id, range, `${from} ${to}`, stamp, async () =>
        (await this.d.rollups.history(device.id, rollupS, from, to, bucketMs)).map((r) => ({
          t: new Date(from + Number(r.bucket) * bucketMs).toISOString(),
          count: Number(r.count),
          temperature: stat(r.t_min, r.t_sum, r.t_count, r.t_max),
          humidity: stat(r.h_min, r.h_sum, r.h_count, r.h_max),
          heart_rate: stat(r.hr_min, r.hr_sum, r.hr_count, r.hr_max),
        })),
      ),
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
      buckets,
    };
  }

  /**
   * The heat-risk back-test (GET /api/devices/{id}/risk/backtest): how often the plain
   * thresholds, and the thresholds with the model beside them, would have alerted over the
   * last `days`, in whole minutes. Summed from rollups (the figures a pass over the readings
   * gives; services/rollup-summary.ts): the minutes before the first whole hour, the hours,
   * and the minutes of the hour under way, at most about 840 rows for 30 days.
   */
  async backtest(actor: User, id: string, days: number): Promise<BacktestResponse> {
    const { device, stamp } = await this.visible(actor, id);
    const to = this.d.clock.now().getTime();
    const from = bucketStart(to - days * 86_400_000, MINUTE_S);
    const hoursFrom = Math.min(bucketStart(from + HOUR_S * 1000 - 1, HOUR_S), to);
    const hoursTo = Math.max(bucketStart(to, HOUR_S), hoursFrom);
    const end = bucketStart(to, MINUTE_S) + MINUTE_S * 1000;
    // The window's minute bounds name the answer: within one minute it reads the same rollups.
    const figures = await this.d.answers.backtests.get(
      device.id,
      `${days}`,
      `${from} ${end}`,
      stamp,
      async () => {
        const rows = await this.d.rollups.levels(device.id, [
          { seconds: MINUTE_S, from, to: hoursFrom },
          { seconds: HOUR_S, from: hoursFrom, to: hoursTo },
          { seconds: MINUTE_S, from: hoursTo, to: end },
        ]);
        const whole = summarise(rows, fromRollupRow);
        return { readings: whole.count, ...backtestOf(whole) };
      },
    );
    return { days, from: new Date(from).toISOString(), to: new Date(to).toISOString(), ...figures };
  }

  /** The device as `actor` may see it (else 404), and the stamp of its readings (read-answers.ts). */
  private async visible(actor: User, id: string): Promise<{ device: Device; stamp: ReadStamp }> {
    const { device, readingsStored } = await this.d.devices.withReadingsStored(actor, id);
    return { device, stamp: { owner: device.user_id, lastSeen: device.last_seen, readingsStored } };
  }
}
