import type { AlertLevel, AlertType } from '../schemas/alert.js';
import { vitalsRank as rank, type VitalsStatus } from './vitals-status.js';
import { wallClock, zonedTimeToUtc } from './time-zone.js';

/**
 * The alert rules (DESIGN §3 "Alerts and notifications"), as pure functions: the server calls
 * them for each reading in time order, inside the transaction that stores it, and writes what
 * they decide. Nothing here reads a clock; times are inputs.
 */

/** A collar silent this long is offline (DESIGN §3 "Freshness"). */
export const OFFLINE_AFTER_MS = 600_000;
/** A battery below this opens the low-battery alert… */
export const LOW_BATTERY_BELOW = 20;
/** …once per discharge: the alert re-arms when the battery reports at least this. */
export const LOW_BATTERY_REARM_AT = 30;

/**
 * The readings of a batch that take part in alerts (decision 0023): those newer than the
 * device's latest reading before the batch, in time order. An older one (a backlog the collar
 * uploads once back in reach) is history: stored and charted, but it never opens, escalates
 * or resolves an alert.
 */
export function readingsThatCount<T>(
  latestBefore: string | null,
  readings: readonly T[],
  timeOf: (reading: T) => number,
): T[] {
  const latest = latestBefore ? Date.parse(latestBefore) : -Infinity;
  return readings.filter((r) => timeOf(r) > latest).sort((a, b) => timeOf(a) - timeOf(b));
}

/**
 * Where the collar's present begins, for its own news ("Collar off?", low battery; decision
 * 0023): OFFLINE_AFTER_MS before the batch's newest reading that counts, or before `now` when
 * that is earlier; null when the whole batch is history (BACKLOG_AFTER_MS). A collar out of
 * reach sends nothing, so everything it kept is newer than its latest reading; older than the
 * silence that makes a collar offline, those readings are history, not news. Measured from the
 * newest reading, not the clock, so a collar whose clock is a little behind, or one that sends
 * every few minutes, is told of as any other.
 */
export function ownNewsSince(newestAt: number | undefined, now: number): number | null {
  const newest = Math.min(newestAt ?? now, now);
  return newest < now - BACKLOG_AFTER_MS ? null : newest - OFFLINE_AFTER_MS;
}

/**
 * A batch whose newest reading is older than this is on its way in from the collar's memory:
 * one list of a backlog sent in several, or one slice of a long list (each is a commit of its
 * own). None of it is the present (`ownNewsSince` answers null): an off spell that goes on at
 * its end waits (`RiskState.offNewsAt`) for the batch that ends now, which tells of it. A
 * collar clock more than this behind is taken for a backlog too, and its own news waits until
 * its clock is right; its heat alerts do not.
 */
export const BACKLOG_AFTER_MS = 60 * 60_000;

/**
 * The reading a "Collar off?" is told at: the one that began the spell (`newsAt`) when it is
 * at or after `since` (the caller passes the later of where the present begins and the
 * batch's first reading, so that reading is in the batch), else the batch's newest while the
 * collar is still judged off there (`newestOffAt`), else none (the spell is history).
 */
export function offNewsToTell(
  newsAt: number | null,
  since: number,
  newestOffAt: number | null,
): number | null {
  if (newsAt === null) return null;
  return newsAt >= since ? newsAt : newestOffAt;
}

/**
 * The time a reading must be later than to be the device's present (its latest vitals, the
 * status chain and alerts): the device's latest reading before the batch, but never later
 * than that reading's arrival. A collar whose clock ran ahead (a timestamp up to 5 minutes
 * in the future is accepted) must not make its next, correctly timed readings look like a
 * backlog: stale on screen and silent for alerts (decision 0023).
 */
export function presentHorizon(
  latestRecordedAt: string | null,
  lastSeen: string | null,
): string | null {
  if (!latestRecordedAt || !lastSeen) return latestRecordedAt;
  return Date.parse(lastSeen) < Date.parse(latestRecordedAt) ? lastSeen : latestRecordedAt;
}

/** What a reading does to a device's heat alert. */
export type HeatStep =
  /** SAFE, and no alert open: nothing to record. */
  | { kind: 'none' }
  | { kind: 'open'; level: AlertLevel }
  | { kind: 'escalate'; from: AlertLevel; to: AlertLevel }
  /** Still above SAFE at or below the open level: the alert holds (peaks may move). */
  | { kind: 'hold' }
  | { kind: 'resolve' };

/**
 * The heat alert follows the device's level: the reading's vitals status (which already
 * carries the 1 °F hysteresis, judged from the previous status), or a higher level when
 * something else raises it (the heat-risk model). It opens at the first level above SAFE,
 * escalates WARNING → DANGER → CRITICAL, never de-escalates while open, and resolves when the
 * level is SAFE again.
 */
export function heatStep(open: { level: AlertLevel } | null, level: VitalsStatus): HeatStep {
  if (level === 'SAFE') return open ? { kind: 'resolve' } : { kind: 'none' };
  if (!open) return { kind: 'open', level };
  if (rank(level) > rank(open.level)) return { kind: 'escalate', from: open.level, to: level };
  return { kind: 'hold' };
}

/** The higher of two levels: a second judge may raise the alarm, never lower it. */
export function higherLevel(a: VitalsStatus, b: VitalsStatus | null | undefined): VitalsStatus {
  return b && rank(b) > rank(a) ? b : a;
}

/**
 * The dog's one level (DESIGN §3 "One level per dog"): the higher of the owner's thresholds
 * (`threshold_status`) and the heat-risk model (`risk_band`). It is the `vitals_status` every
 * answer carries, the level the heat alert follows, the pet badge, every card, the bell and
 * every mail. Null while the collar has sent nothing the thresholds judged (the model alone
 * never makes a level: it may only raise one).
 */
export function dogLevel(
  thresholdStatus: VitalsStatus | null | undefined,
  riskBand: VitalsStatus | null | undefined,
): VitalsStatus | null {
  return thresholdStatus ? higherLevel(thresholdStatus, riskBand) : null;
}

/** Which judge set the dog's level: the thresholds when they alone reach it, else the model. */
export function levelSetBy(
  thresholdStatus: VitalsStatus,
  riskBand: VitalsStatus | null | undefined,
): 'thresholds' | 'model' {
  return higherLevel(thresholdStatus, riskBand) === thresholdStatus ? 'thresholds' : 'model';
}

/** An open heat alert's peaks after one more reading while it is open. */
export function nextPeaks(
  peaks: { temperatureC: number | null; heatIndexF: number | null },
  reading: { temperatureC: number; heatIndexF: number },
): { temperatureC: number; heatIndexF: number } {
  return {
    temperatureC: Math.max(peaks.temperatureC ?? -Infinity, reading.temperatureC),
    heatIndexF: Math.max(peaks.heatIndexF ?? -Infinity, reading.heatIndexF),
  };
}

/** What a reading's battery does to the low-battery alert. */
export type BatteryStep = { kind: 'none' } | { kind: 'open' } | { kind: 'rearm' };

/**
 * Low battery, once per discharge: below 20 % opens the alert while armed (and disarms it);
 * a reading of 30 % or more re-arms it (and resolves the alert if it is still open). A
 * reading without a battery value changes nothing.
 */
export function batteryStep(armed: boolean, battery: number | null | undefined): BatteryStep {
  if (battery === null || battery === undefined) return { kind: 'none' };
  if (armed) return battery < LOW_BATTERY_BELOW ? { kind: 'open' } : { kind: 'none' };
  return battery >= LOW_BATTERY_REARM_AT ? { kind: 'rearm' } : { kind: 'none' };
}

/**
 * The last_seen at or before which a collar is offline now: 10 minutes of silence. Silence
 * is counted from when this server began listening at the latest, so a server (or database)
 * that was down itself never takes every collar offline the moment it is back: the collars
 * get 10 minutes to reconnect first. Null while nothing can be offline yet.
 */
export function offlineCutoff(now: Date, listeningSince: Date): Date | null {
  if (now.getTime() - listeningSince.getTime() < OFFLINE_AFTER_MS) return null;
  return new Date(now.getTime() - OFFLINE_AFTER_MS);
}

const HOUR_MS = 60 * 60 * 1000;
/** The daily digest goes out at 08:00 in the owner's time zone, UTC when unknown (DESIGN §3). */
export const DAILY_DIGEST_HOUR = 8;

/** The end of the last hourly digest window at `now`: the last minute 0 UTC. */
export function hourlyWindowEnd(now: Date): Date {
  return new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
}

/**
 * The end of the last daily digest window at `now`: the last 08:00 at or before it on the
 * wall clock of `timeZone` (an IANA name; UTC when unknown). So a window is a local day,
 * 23 or 25 hours long across a change of summer time.
 */
export function dailyWindowEnd(now: Date, timeZone: string | null = null): Date {
  const zone = timeZone ?? 'UTC';
  const today = wallClock(now.getTime(), zone);
  const at = (dayOffset: number) =>
    zonedTimeToUtc(zone, today.year, today.month, today.day + dayOffset, DAILY_DIGEST_HOUR);
  const end = at(0);
  return new Date(end <= now.getTime() ? end : at(-1));
}

/** At most one immediate mail per device this often, unless the news is worse (DESIGN §3). */
export const ALERT_MAIL_COOLDOWN_MS = 15 * 60 * 1000;

/** What an alert mail reports: the alert's type, and for heat the level it reached. */
export interface MailedNews {
  type: AlertType;
  level: AlertLevel | null;
}

/**
 * Whether an immediate alert mail goes now, given the device's alert mails of the last 15
 * minutes. An escalation (or a "not yet acknowledged" reminder) always goes. An opening waits only when it repeats news already
 * mailed in that time: the same type, and for heat a level at least as high. So an episode
 * that ends and starts again at once stays one mail, while a worse one (a new CRITICAL after
 * a WARNING), or news of another kind (heat after low battery), is never held back.
 */
export function mailCooldownAllows(
  news: MailedNews & { kind: 'opened' | 'escalated' | 'unacknowledged' },
  recent: readonly MailedNews[],
): boolean {
  // A reminder that nobody has acknowledged a DANGER or CRITICAL alert is news like an escalation.
  if (news.kind !== 'opened') return true;
  return !recent.some(
    (m) =>
      m.type === news.type &&
      (news.level === null || (m.level !== null && rank(m.level) >= rank(news.level))),
  );
}
