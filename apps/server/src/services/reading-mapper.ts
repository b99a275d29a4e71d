import {
  asVitalsStatus,
  dogLevel,
  parseReasons,
  type DeviceVitalsPatch,
  type Reading,
  type VitalsStatus,
} from '@pawguard/shared';
import type { ReadingRow } from '../repositories/readings-repository.js';

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/**
 * A device's latest-vitals fields as stored (decision 0031): `vitals_status` here is the
 * column, which keeps the owner's thresholds' verdict (the 1 °F hysteresis is judged from
 * it); answers carry the dog's one level in its place (`withLevel`).
 */
export type StoredVitals = Omit<DeviceVitalsPatch, 'threshold_status' | 'vitals_status'> & {
  vitals_status: string | null;
};

/**
 * Stored latest vitals as answers and stream events carry them: `vitals_status` the dog's
 * one level (the higher of the thresholds and the heat-risk model), `threshold_status` the
 * thresholds' own verdict.
 */
export function withLevel(stored: StoredVitals): DeviceVitalsPatch {
  const threshold = asVitalsStatus(stored.vitals_status);
  return {
    ...stored,
    vitals_status: dogLevel(threshold, stored.risk_band),
    threshold_status: threshold,
  };
}

/** A stored reading as every answer and stream event carries it. */
export function toReading(row: ReadingRow, deviceId: string): Reading {
  // readings.status keeps the thresholds' verdict; the answer's status is the dog's level.
  const threshold = (asVitalsStatus(row.status) ?? 'SAFE') as VitalsStatus;
  const band = asVitalsStatus(row.risk_band);
  return {
    id: String(row.id),
    device_id: deviceId,
    timestamp: iso(row.recorded_at),
    temperature: row.temperature,
    humidity: row.humidity,
    heart_rate: row.heart_rate,
    activity_level: row.activity_level,
    battery: row.battery,
    status: dogLevel(threshold, band) ?? threshold,
    threshold_status: threshold,
    reported_status: row.reported_status,
    location: row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon },
    received_at: iso(row.received_at),
    risk_band: band,
    risk_score: row.risk_score === null ? null : Number(row.risk_score),
    risk_reasons: parseReasons(row.risk_reasons),
  };
}
