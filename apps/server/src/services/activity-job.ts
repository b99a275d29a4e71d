import type { FastifyBaseLogger } from 'fastify';
import {
  classifyMinute,
  detectWalks,
  foldMinutes,
  WALK_LOOKBACK_MS,
  WALK_MAX_GAP_MINUTES,
  type ActivityHour,
  type DetectedWalk,
} from '@pawguard/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ActivityRepository } from '../repositories/activity-repository.js';
import type { Clock } from './clock.js';
import { HOUR_ROLLUP_RETENTION_DAYS, MINUTE_ROLLUP_RETENTION_DAYS } from './rollups.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/**
 * Every minute the job looks at the last 2 hours, from the start of the clock hour they begin in
 * (a walk's readings, a live collar, an upload of the last hour or two)…
 */
export const RECENT_MS = 2 * HOUR_MS;
/**
 * …every 10 minutes at the days a backlog may reach, and one more (uploads older than
 * READINGS_MAX_AGE_DAYS, 7 by default, are refused; a collar back in reach, or `npm run
 * demo`'s weeks, shows within 10 minutes)…
 */
export const backlogMs = (readingsMaxAgeDays: number) =>
  Math.min(readingsMaxAgeDays + 1, MINUTE_ROLLUP_RETENTION_DAYS) * DAY_MS;
const BACKLOG_PASS_MS = 10 * 60_000;
/** …and once at start at every hour minute rollups still hold (an installation's first run). */
export const FIRST_RUN_MS = MINUTE_ROLLUP_RETENTION_DAYS * DAY_MS;
/** Stale hours further apart than this are classed as separate spans. */
const SPAN_GAP_MS = 3 * HOUR_MS;
const PRUNE_BATCH = 1_000;
/** A collar that reported a heart rate this recently is one that reports heart rate. */
const HEART_RATE_COLLAR_MS = 7 * DAY_MS;
const ACTIVE = new Set(['active', 'vigorous']);
/** Stale hours read per query (a first pass over many collars reads many pages). */
const STALE_PAGE = 5_000;

/** A span of one collar classed again: its hours, and its walks from `walksFrom` to `to`. */
export interface Refold {
  deviceId: string;
  hours: ActivityHour[];
  walks: DetectedWalk[];
  walksFrom: number;
  to: number;
}

/** Consecutive stale hours (at most 3 hours apart) of one collar, [from, to). */
export function spansOf(hours: readonly number[]): { from: number; to: number }[] {
  const sorted = [...hours].sort((a, b) => a - b);
  const spans: { from: number; to: number }[] = [];
  for (const h of sorted) {
    const last = spans.at(-1);
    if (last && h - last.to <= SPAN_GAP_MS) last.to = h + HOUR_MS;
    else spans.push({ from: h, to: h + HOUR_MS });
  }
  return spans;
}

/**
 * Classes collars' minute rollups into hourly activity and walks (docs/activity.md "The job").
 * An hour is classed again whenever its hour rollup holds other readings than were classed for
 * it (new readings, a backlog): no watermark, and every write an idempotent upsert, so two
 * instances running it at once write the same rows. Only completed minutes are classed; a walk
 * in progress is found again, whole, on the next pass (walks are keyed by their start).
 */
export class ActivityJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private lastBacklogPass = 0;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      activity: ActivityRepository;
      clock: Clock;
      log: FastifyBaseLogger;
      /** Days back an upload may reach (READINGS_MAX_AGE_DAYS): the backlog pass's reach. */
      readingsMaxAgeDays: number;
    },
  ) {}

  /**
   * One collar's span classed again, not written: the hours of [from, to) from their completed
   * minutes, and the walks that start from the earliest one reaching into the span. Reads from 3
   * hours before (or the start of a stored walk reaching into the span) so a walk is found whole.
   */
  async refold(deviceId: string, from: number, to: number, now: number): Promise<Refold> {
    const completed = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const end = Math.min(to, completed);
    const stored = await this.d.activity.walks([deviceId], from - WALK_LOOKBACK_MS - DAY_MS, from);
    let readFrom = from - WALK_LOOKBACK_MS;
    let reaching = false;
    for (const w of stored)
      if (w.start + (w.minutes + WALK_MAX_GAP_MINUTES + 1) * MINUTE_MS >= from) {
        readFrom = Math.min(readFrom, w.start);
        reaching = true;
      }
    let minutes = await this.d.activity.minutes(deviceId, from, end);
    // Only a bout that may have begun before the span needs the minutes before it: a stored
    // walk reaching into it, or activity within its first minutes (a live collar's current
    // hour is usually neither, and reads its own minutes alone).
    const first = minutes.find((m) => m.count > 0 && ACTIVE.has(classifyMinute(m.activity)));
    if (reaching || (first && first.at < from + (WALK_MAX_GAP_MINUTES + 1) * MINUTE_MS))
      minutes = [...(await this.d.activity.minutes(deviceId, readFrom, from)), ...minutes];
    // A collar that reports heart rate (seen within 7 days) and reports none, without moving,
    // is off its dog: those minutes are not the dog's (collarOffMinute).
    const reportsHeartRate = await this.d.activity.heartRateSince(
      deviceId,
      from - HEART_RATE_COLLAR_MS,
      end,
    );
    const folded = foldMinutes(
      minutes.filter((m) => m.at >= from),
      { reportsHeartRate },
    );
    const hours: ActivityHour[] = [];
    for (let at = from; at < to && at < completed; at += HOUR_MS) {
      const h = folded.get(at);
      if (h) hours.push(h);
    }
    const found = detectWalks(minutes);
    let walksFrom = from;
    for (const w of found)
      if (w.start < from && w.start + (w.minutes + WALK_MAX_GAP_MINUTES + 1) * MINUTE_MS >= from)
        walksFrom = Math.min(walksFrom, w.start);
    for (const w of stored)
      if (w.start + (w.minutes + WALK_MAX_GAP_MINUTES + 1) * MINUTE_MS >= from)
        walksFrom = Math.min(walksFrom, w.start);
    return {
      deviceId,
      hours,
      walks: found.filter((w) => w.start >= walksFrom && w.start < to),
      walksFrom,
      to,
    };
  }

  /**
   * Classes every hour changed since `since` (all collars, or these), and writes them: a page
   * of stale hours at a time, with a pause between collars so requests waiting on the
   * database (one connection on SQLite) go first.
   */
  async refresh(since: number, deviceIds?: readonly string[]): Promise<number> {
    const now = this.d.clock.now().getTime();
    let written = 0;
    let after: { deviceId: string; at: number } | undefined;
    for (;;) {
      const stale = await this.d.activity.staleHours(since, deviceIds, {
        ...(after ? { after } : {}),
        limit: STALE_PAGE,
      });
      const byDevice = new Map<string, number[]>();
      for (const s of stale) {
        const list = byDevice.get(s.device_uuid);
        if (list) list.push(s.hour_at);
        else byDevice.set(s.device_uuid, [s.hour_at]);
      }
      for (const [deviceId, hours] of byDevice) {
        for (const span of spansOf(hours)) written += await this.write(deviceId, span, hours, now);
        if (byDevice.size > 1) await new Promise((r) => setTimeout(r, 1));
      }
      if (stale.length < STALE_PAGE) return written;
      const last = stale.at(-1)!;
      after = { deviceId: last.device_uuid, at: last.hour_at };
    }
  }

  /** One span of one collar classed again and written; answers the hours written. */
  private async write(
    deviceId: string,
    span: { from: number; to: number },
    stale: readonly number[],
    now: number,
  ): Promise<number> {
    const r = await this.refold(deviceId, span.from, span.to, now);
    // Stale hours of the span none of whose minutes is complete yet are written empty: the next
    // pass sees them as changed once their minutes are.
    const have = new Set(r.hours.map((h) => h.at));
    const all = [...r.hours];
    for (const at of stale)
      if (at >= span.from && at < span.to && !have.has(at) && at < now) all.push(emptyHourAt(at));
    await this.d.db.transaction().execute(async (trx) => {
      await this.d.activity.upsertHours(deviceId, all, trx);
      await this.d.activity.replaceWalks(deviceId, r.walksFrom, r.to, r.walks, trx);
    });
    return all.length;
  }

  /** One pass: the last 2 hours, and every 10 minutes the days a backlog may reach; prunes what is a year old. */
  async tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      const now = this.d.clock.now().getTime();
      if (this.lastBacklogPass === 0) {
        await this.refresh(now - FIRST_RUN_MS);
        this.lastBacklogPass = now;
      } else if (now - this.lastBacklogPass >= BACKLOG_PASS_MS) {
        await this.refresh(now - backlogMs(this.d.readingsMaxAgeDays));
        await this.prune(now);
        this.lastBacklogPass = now;
      } else await this.refresh(now - RECENT_MS);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Activity older than hour rollups are kept (a year), in batches. */
  async prune(now: number): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.d.activity.pruneOlderThan(
        now - HOUR_ROLLUP_RETENTION_DAYS * DAY_MS,
        PRUNE_BATCH,
      );
      total += n;
      if (n < PRUNE_BATCH) return total;
    }
  }

  start(): void {
    const run = () =>
      void this.tick().catch((err: unknown) => this.d.log.error({ err }, 'activity job failed'));
    this.timer = setInterval(run, MINUTE_MS);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}

function emptyHourAt(at: number): ActivityHour {
  return foldMinutes([
    {
      at,
      count: 0,
      activity: null,
      heartRateSum: 0,
      heartRateCount: 0,
      temperatureMax: null,
      humidityMax: null,
      levelMax: 0,
    },
  ]).get(at)!;
}
