import { asVitalsStatus, parseReasons, type Reading, type VitalsStatus } from '@pawguard/shared';
import type { ReadingRow } from '../repositories/readings-repository.js';

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** A stored reading as every answer and stream event carries it. */
export function toReading(row: ReadingRow, deviceId: string): Reading {
  return {
    id: String(row.id),
    device_id: deviceId,
    timestamp: iso(row.recorded_at),
    temperature: row.temperature,
    humidity: row.humidity,
    heart_rate: row.heart_rate,
    activity_level: row.activity_level,
    battery: row.battery,
    status: row.status as VitalsStatus,
    reported_status: row.reported_status,
    location: row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon },
    received_at: iso(row.received_at),
    risk_band: asVitalsStatus(row.risk_band),
    risk_score: row.risk_score === null ? null : Number(row.risk_score),
    risk_reasons: parseReasons(row.risk_reasons),
  };
}
