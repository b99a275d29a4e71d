import { asVitalsStatus, nextRegistrationStatus, parseReasons } from '@pawguard/shared';
import type { DeviceChanges, IngestedDeviceRow } from '../repositories/devices-repository.js';
import type { ReadingRow } from '../repositories/readings-repository.js';
import type { StoredVitals } from '../services/reading-mapper.js';
import { presentSince, type IngestDevice } from './ingest-device.js';

/** A collar's row as a batch leaves it. */
export interface DeviceProjection {
  /** Its fields as the batch leaves them (what the live event and the alerts see). */
  patch: StoredVitals;
  /**
   * The columns it changes (what SQLite writes: an unchanged column, an index among them,
   * costs it work for nothing).
   */
  changes: DeviceChanges;
  /** The whole row (what PostgreSQL writes, for every collar of the batch in one statement). */
  row: IngestedDeviceRow;
  /** The risk state written, as JSON. */
  riskState: string;
}

/**
 * The device row after a batch: last_seen is the arrival time; the latest-vitals columns
 * follow the greatest timestamp, and a field absent from that reading keeps its value;
 * status active (back from offline, never out of maintenance); registration active.
 * `fresh`: the readings the batch inserted for it, oldest first.
 */
export function projectDevice(
  device: IngestDevice,
  fresh: ReadingRow[],
  now: Date,
): DeviceProjection {
  const before = device.state;
  const seenAt = now.toISOString();
  const patch: StoredVitals = {
    ...before,
    last_seen: seenAt,
    status: before.status === 'maintenance' ? 'maintenance' : 'active',
    registration_status: nextRegistrationStatus(before.registration_status, 'data') ?? 'active',
  };
  const storedAt = presentSince(before);
  const newer = fresh.filter((r) => Number(r.recorded_at) > storedAt);
  const newest = newer.at(-1);
  if (newest) {
    const lastWith = (k: 'heart_rate' | 'activity_level' | 'battery') =>
      newer.findLast((r) => r[k] !== null)?.[k];
    patch.temperature_celsius = newest.temperature;
    patch.humidity_percent = newest.humidity;
    patch.vitals_status = newest.status;
    patch.vitals_recorded_at = new Date(Number(newest.recorded_at)).toISOString();
    patch.heart_rate = lastWith('heart_rate') ?? before.heart_rate;
    patch.activity_level = lastWith('activity_level') ?? before.activity_level;
    patch.battery_level = lastWith('battery') ?? before.battery_level;
    patch.risk_band = asVitalsStatus(newest.risk_band);
    patch.risk_score = newest.risk_score;
    patch.risk_reasons = parseReasons(newest.risk_reasons);
  }
  patch.collar_off = device.risk.offSince !== null;
  // Written only while the owner it was read with still holds it (the row is locked on
  // PostgreSQL; on SQLite one connection serialises every write).
  const riskState = JSON.stringify(device.risk);
  // The reasons are stored as the newest reading has them (JSON), and only when it moved on.
  const reasons = newest ? newest.risk_reasons : device.stored.risk_reasons;
  const changes: Record<string, unknown> = { last_seen: seenAt, updated_at: seenAt };
  for (const k of PATCH_COLUMNS) if (patch[k] !== before[k]) changes[k] = patch[k];
  if (reasons !== device.stored.risk_reasons) changes.risk_reasons = reasons;
  if (riskState !== device.stored.risk_state) changes.risk_state = riskState;
  // The collar's count of readings kept: what this batch inserted (a repeat adds nothing).
  const readingsStored = device.readingsStored + fresh.length;
  if (fresh.length) changes.readings_stored = readingsStored;
  const row: IngestedDeviceRow = {
    id: device.id,
    user_id: device.user_id,
    last_seen: seenAt,
    updated_at: seenAt,
    status: patch.status,
    registration_status: patch.registration_status,
    battery_level: patch.battery_level,
    temperature_celsius: patch.temperature_celsius,
    humidity_percent: patch.humidity_percent,
    heart_rate: patch.heart_rate,
    activity_level: patch.activity_level,
    vitals_status: patch.vitals_status,
    vitals_recorded_at: patch.vitals_recorded_at,
    risk_band: patch.risk_band,
    risk_score: patch.risk_score,
    risk_reasons: reasons,
    risk_state: riskState,
    readings_stored: readingsStored,
  };
  return { patch, changes: changes as DeviceChanges, row, riskState };
}

/** The device columns a batch may change, besides last_seen and the JSON columns. */
const PATCH_COLUMNS = [
  'status',
  'registration_status',
  'battery_level',
  'temperature_celsius',
  'humidity_percent',
  'heart_rate',
  'activity_level',
  'vitals_status',
  'vitals_recorded_at',
  'risk_band',
  'risk_score',
] as const satisfies readonly (keyof StoredVitals & keyof DeviceChanges)[];
// Every field of the patch is written: a field added to it and not to PATCH_COLUMNS (or written
// on its own, as last_seen and the reasons are) is a type error here, not a field lost.
const everyPatchFieldWritten: Record<
  Exclude<
    keyof StoredVitals,
    // collar_off is no column: it is read from the risk state (written below).
    (typeof PATCH_COLUMNS)[number] | 'last_seen' | 'risk_reasons' | 'collar_off'
  >,
  never
> = {};
void everyPatchFieldWritten;
