import { fahrenheitToCelsius, formatCelsius, type TemperatureUnit } from './units.js';
import type { Thresholds } from './vitals-status.js';

/**
 * The thresholds' reason of a heat alert, in one wording for the alert rules that write it and
 * the answers that read it. An alert keeps its reasons as they were when it opened or last
 * escalated; the owner may change a threshold meanwhile, and a reason naming the old one would
 * read as if it were still set. Answers therefore say which threshold applied then and which
 * applies now.
 */

export type ThresholdKind = 'warning' | 'critical';

/**
 * A threshold as a reason names it. The thresholds are set in °F (the spec's settings screen):
 * a °C reader sees the °C and, beside it, the °F they typed ("32.2°C (90°F)").
 */
export const formatThreshold = (f: number, unit: TemperatureUnit): string =>
  unit === 'C' ? `${formatCelsius(fahrenheitToCelsius(f))} (${f}°F)` : `${f}°F`;

/** "collar temperature 95.0°F is at or above the critical threshold of 90°F" */
export function thresholdReason(
  subject: string,
  kind: ThresholdKind,
  limitF: number,
  unit: TemperatureUnit = 'F',
): string {
  return `${subject} is at or above the ${kind} threshold of ${formatThreshold(limitF, unit)}`;
}

const THRESHOLD_REASON = /^(.*) is at or above the (warning|critical) threshold of (.+)$/;
/** The °F a written threshold names: "90°F", or "32.2°C (90°F)". */
const THRESHOLD_F = /^(?:-?[\d.]+°C \()?(-?[\d.]+)°F\)?$/;

/**
 * A stored reason as it reads now: unchanged while the threshold it names is still the owner's;
 * otherwise in the past tense, with the threshold then and now, in the unit it was written in
 * ("… was at or above the critical threshold of 90°F at the time (it is 105°F now)"). Other
 * reasons pass through.
 */
export function reasonNow(reason: string, now: Thresholds): string {
  const m = THRESHOLD_REASON.exec(reason);
  const f = m ? THRESHOLD_F.exec(m[3]!) : null;
  if (!m || !f) return reason;
  const [, subject, kind, written] = m as unknown as [string, string, ThresholdKind, string];
  const current = kind === 'critical' ? now.criticalF : now.warningF;
  if (Number(f[1]) === current) return reason;
  const unit: TemperatureUnit = written.includes('°C') ? 'C' : 'F';
  return `${subject} was at or above the ${kind} threshold of ${written} at the time (it is ${formatThreshold(current, unit)} now)`;
}

export const reasonsNow = (reasons: readonly string[], now: Thresholds): string[] =>
  reasons.map((r) => reasonNow(r, now));
