/**
 * What an owner reads about an alert, in plain words: the notification's title and message
 * (which the alert mail and the digests repeat), and the reasons a heat alert carries. Pure
 * functions of what the alert engine already knows: no query, no clock of their own.
 */

import {
  celsiusToFahrenheit,
  fahrenheitToCelsius,
  formatCelsius,
  formatFahrenheit,
  formatTemperature,
  formatZonedTime,
  heatIndexF,
  heatIndexQuotable,
  EXTREME_HEAT,
  levelSetBy,
  asVitalsStatus,
  parseReasons,
  thresholdReason,
  type Alert,
  type AlertLevel,
  type TemperatureUnit,
} from '@pawguard/shared';
import type { AlertNotice } from '../services/alert-notices.js';
import type { StoredReading } from '../ingest/ingest-device.js';
import { readingTime, type PendingNotice } from './alert-rows.js';

/** What a notice needs to name: the collar, its pet and its owner. */
export interface Subject {
  deviceId: string;
  deviceName: string;
  dogName: string | null;
  owner: AlertNotice['owner'];
}

const LEVEL_WORD: Record<AlertLevel, string> = {
  WARNING: 'Warning',
  DANGER: 'Danger',
  CRITICAL: 'Critical',
};

/**
 * A reading older than this when it arrives came late (a backlog uploaded once the collar was
 * back in range): its notification says when it was taken, since "1m ago" is only when it came.
 */
const LATE_READING_MS = 5 * 60_000;

/** Why an over-budget collar's readings are refused, in the owner's words. */
export const OVER_BUDGET_REASON = {
  rate: 'It sent far more readings than a collar needs. Check its firmware, or contact support if this goes on.',
  quota:
    'Your account keeps as many readings as its storage quota allows. Older readings expire with retention; contact support to raise the quota.',
} as const;

/** A notification's title and message: who, what, how hot, what to do. */
export function notificationText(
  n: PendingNotice,
  alert: Alert,
  s: Subject,
  now: Date,
): { title: string; message: string } {
  const who = s.dogName ?? s.deviceName ?? s.deviceId;
  const collar = `${s.deviceName} (${s.deviceId})`;
  if (alert.type === 'heat') {
    const level = LEVEL_WORD[n.alert.level as AlertLevel];
    const r = n.reading;
    const title =
      n.kind === 'escalated'
        ? `${who}: heat alert raised to ${level}`
        : n.kind === 'unacknowledged'
          ? `${who}: ${level} heat alert not yet acknowledged`
          : `${who}: ${level} heat alert`;
    const advice =
      n.alert.level === 'WARNING'
        ? 'Move them to shade and offer water.'
        : 'Cool them now with cool (not ice-cold) water and call your vet.';
    const why = alert.reasons.length ? ` Why: ${alert.reasons.join('; ')}.` : '';
    // A reminder first says why it came again.
    const again = n.kind === 'unacknowledged' ? 'Nobody has acknowledged this alert yet. ' : '';
    if (!r)
      return {
        title,
        message: `${again}${collar} peaked at ${formatTemperature(alert.peak_temperature_celsius ?? 0, s.owner.temperatureUnit)}.${why} ${advice}`,
      };
    const late = now.getTime() - Number(r.recorded_at) > LATE_READING_MS;
    const temp = formatTemperature(r.temperature, s.owner.temperatureUnit);
    return {
      title,
      message: late
        ? `${again}${collar} read ${temp} at ${r.humidity}% humidity (taken ${formatZonedTime(readingTime(r), s.owner.timeZone)}, received late).${why} ${advice}`
        : `${again}${collar} reads ${temp} at ${r.humidity}% humidity.${why} ${advice}`,
    };
  }
  if (alert.type === 'collar_off')
    return {
      title: `${who}'s collar seems to be off`,
      message: `${collar} has sent no heart rate and no movement for a few minutes. If it is charging or put away, all is well: until it is back on ${who}, only heat at your critical threshold raises a heat alert.`,
    };
  if (alert.type === 'over_budget')
    return {
      title: `${who}: readings refused`,
      message: `${collar}: ${alert.reasons[0] ?? OVER_BUDGET_REASON.rate} PawGuard refuses its new readings for now, so heat alerts may miss them.`,
    };
  if (alert.type === 'offline')
    return {
      title: `${who}: collar offline`,
      message: `${collar} has sent nothing for 10 minutes. Check that it is charged and in range.`,
    };
  return {
    title: `${who}: collar battery low`,
    message: `${collar} is at ${alert.battery_level ?? '?'}% battery. Charge it soon so alerts keep reaching you.`,
  };
}

/**
 * Why a heat alert opened or rose, in plain words (at most three): the owner's threshold when
 * the reading reached it, and the heat-risk model's reasons, whichever set the level first.
 * Worded for whoever reads them, the owner or an admin ("the critical threshold", not "your").
 * From a collar judged off its dog, the threshold's reason follows a word that it may be off.
 */
export function reasonsFor(
  s: StoredReading,
  thresholds: { warningF: number; criticalF: number },
  unit: TemperatureUnit,
  collarOff = false,
): string[] {
  const out: string[] = [];
  if (collarOff)
    out.push(
      'the collar may be off its dog (no heart rate or movement), but if it is on, this heat is dangerous',
    );
  const tempF = celsiusToFahrenheit(s.row.temperature);
  const degrees = (f: number) =>
    unit === 'C' ? formatCelsius(fahrenheitToCelsius(f)) : formatFahrenheit(f);
  if (s.status === 'CRITICAL' || s.status === 'WARNING') {
    const limit = s.status === 'CRITICAL' ? thresholds.criticalF : thresholds.warningF;
    const which = s.status === 'CRITICAL' ? 'critical' : 'warning';
    out.push(thresholdReason(`collar temperature ${degrees(tempF)}`, which, limit, unit));
  } else if (s.status === 'DANGER') {
    const hi = heatIndexQuotable(tempF, s.row.humidity)
      ? `heat index ${degrees(heatIndexF(tempF, s.row.humidity))}`
      : EXTREME_HEAT;
    out.push(thresholdReason(hi, 'critical', thresholds.criticalF, unit));
  }
  const risk = asVitalsStatus(s.row.risk_band) ?? 'SAFE';
  if (risk === 'SAFE' || collarOff) return out;
  const model = parseReasons(s.row.risk_reasons);
  // Whichever set the level leads: the model's when it raised it above the thresholds.
  return (levelSetBy(s.status, risk) === 'model' ? [...model, ...out] : [...out, ...model]).slice(
    0,
    3,
  );
}
