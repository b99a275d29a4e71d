import {
  DEFAULT_PREFERENCES,
  asVitalsStatus,
  parseReasons,
  presentHorizon,
  type RiskProfile,
  type RiskState,
  type VitalsStatus,
} from '@pawguard/shared';
import type { IngestStateRow } from '../repositories/devices-repository.js';
import type { ReadingRow } from '../repositories/readings-repository.js';
import type { StoredVitals } from '../services/reading-mapper.js';
import { healthConditionsOf } from '../services/dog-service.js';

/** A posting device as ingest sees it inside the transaction. */
export interface IngestDevice {
  id: string;
  device_id: string;
  user_id: string;
  /** Its fields: as stored before this batch, then (for the alerts) as this batch left them. */
  state: StoredVitals;
  /** Its fields as stored before this batch (what the alerts judge the batch against). */
  previous: StoredVitals;
  thresholds: { warningF: number; criticalF: number };
  /** A battery below 20 % would open a low-battery alert (once per discharge). */
  batteryAlertArmed: boolean;
  /** Readings the collar kept before this batch (its storage counter). */
  readingsStored: number;
  /** The pet the collar is on, as the heat-risk model reads it. */
  profile: RiskProfile;
  /** The heat-risk model's memory of this collar: before the batch, then after it. */
  risk: RiskState;
  /** The JSON columns as stored before this batch (a column is written only when it changes). */
  stored: { risk_reasons: string | null; risk_state: string | null };
  /**
   * The model's collar-off judgement (docs/heat-risk.md): whether the collar was judged off
   * before this batch, the times of this batch's readings judged off or without any sign of
   * the dog (they raise no heat alert below the owner's critical threshold, decision 0034),
   * and the off spell to tell the owner of with it.
   */
  collarOff: { before: boolean; readings: Set<number>; news: OffNews | null };
  /**
   * Where this batch's present begins, as evaluate.ts judged it (`ownNewsSince`): the collar's
   * own news (low battery, collar off) is told of readings from then on; null, of none.
   */
  present: number | null;
}

/**
 * An off spell's "Collar off?" to tell with this batch: the reading that began the spell (the
 * owner hears of spells begun by day) and the one of this batch it is told at.
 */
export interface OffNews {
  startedAt: number;
  tellAt: number;
}

/** A reading stored by this batch, with the status the server gave it. */
export interface StoredReading {
  row: ReadingRow;
  status: VitalsStatus;
}

/** A reading later than this is the device's present; an older one is a backlog. */
export function presentSince(state: StoredVitals): number {
  const horizon = presentHorizon(state.vitals_recorded_at, state.last_seen);
  return horizon ? Date.parse(horizon) : -Infinity;
}

/** A posting collar's row, read in the transaction, as ingest works with it. */
export function toIngestDevice(r: IngestStateRow, owner: string, risk: RiskState): IngestDevice {
  const {
    id: _id,
    device_id: _deviceId,
    user_id: _userId,
    temperature_threshold: w,
    critical_temperature_threshold: c,
    battery_alert_armed: armed,
    risk_band: band,
    risk_score: score,
    risk_reasons: reasons,
    risk_state: riskState,
    readings_stored: readingsStored,
    dog_name: dogName,
    dog_breed: breed,
    dog_age: age,
    dog_weight: weight,
    dog_sex: sex,
    dog_body_condition: bodyCondition,
    dog_health_conditions: conditions,
    ...vitals
  } = r;
  const state: StoredVitals = {
    ...vitals,
    risk_band: asVitalsStatus(band),
    risk_score: score === null ? null : Number(score),
    risk_reasons: parseReasons(reasons),
    collar_off: risk.offSince !== null,
  };
  return {
    id: r.id,
    device_id: r.device_id,
    user_id: owner,
    state,
    previous: state,
    batteryAlertArmed: Boolean(armed),
    readingsStored: Number(readingsStored),
    profile: {
      name: dogName,
      breed,
      age,
      weightLbs: weight === null ? null : Number(weight),
      sex,
      bodyCondition,
      conditions: healthConditionsOf(conditions),
    },
    risk,
    stored: { risk_reasons: reasons, risk_state: riskState },
    collarOff: { before: risk.offSince !== null, readings: new Set(), news: null },
    present: null,
    thresholds: {
      warningF: w ?? DEFAULT_PREFERENCES.temperature_threshold,
      criticalF: c ?? DEFAULT_PREFERENCES.critical_temperature_threshold,
    },
  };
}
