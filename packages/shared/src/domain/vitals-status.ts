import { celsiusToFahrenheit } from './units.js';
import { heatIndexF } from './heat-index.js';

/** The server's judgement of a reading (DESIGN §3 "Vitals status"), lowest first. */
export const VITALS_STATUSES = ['SAFE', 'WARNING', 'DANGER', 'CRITICAL'] as const;
export type VitalsStatus = (typeof VITALS_STATUSES)[number];

/** A device leaves a level only once the value that put it there is this far below it. */
export const HYSTERESIS_F = 1;

export interface Thresholds {
  /** Warning threshold, °F (the owner's `temperature_threshold`). */
  warningF: number;
  /** Critical threshold, °F (the owner's `critical_temperature_threshold`). */
  criticalF: number;
}

/** A level's place, SAFE lowest: to compare two levels. */
export const vitalsRank = (s: VitalsStatus): number => VITALS_STATUSES.indexOf(s);
const rank = vitalsRank;

export function isVitalsStatus(value: unknown): value is VitalsStatus {
  return typeof value === 'string' && (VITALS_STATUSES as readonly string[]).includes(value);
}

/** A stored level (a text column), or null when it is none of the four. */
export const asVitalsStatus = (value: unknown): VitalsStatus | null =>
  isVitalsStatus(value) ? value : null;

/**
 * The status of a reading from the owner's thresholds:
 * CRITICAL when temperature ≥ critical; DANGER when the heat index ≥ critical; WARNING when
 * temperature ≥ warning; SAFE otherwise. With the device's previous status, a level it is at
 * (or above) holds until its value falls 1 °F below the threshold, so a reading hovering at a
 * threshold does not flap. The previous status of a device with no readings is SAFE.
 */
export function vitalsStatus(
  reading: { temperature: number; humidity: number },
  thresholds: Thresholds,
  previous: VitalsStatus | null = null,
): VitalsStatus {
  const tempF = celsiusToFahrenheit(reading.temperature);
  const hiF = heatIndexF(tempF, reading.humidity);
  const held = rank(asVitalsStatus(previous) ?? 'SAFE');
  // At or below the level held, the bar to stay is 1 °F lower than the bar to enter.
  const reaches = (level: VitalsStatus, value: number, threshold: number) =>
    rank(level) <= held ? value > threshold - HYSTERESIS_F : value >= threshold;
  if (reaches('CRITICAL', tempF, thresholds.criticalF)) return 'CRITICAL';
  if (reaches('DANGER', hiF, thresholds.criticalF)) return 'DANGER';
  if (reaches('WARNING', tempF, thresholds.warningF)) return 'WARNING';
  return 'SAFE';
}
