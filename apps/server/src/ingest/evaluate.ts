import {
  OFF_EPISODE_GAP_MS,
  assessAlone,
  offNewsToTell,
  ownNewsSince,
  recordDay,
  riskStep,
  vitalsStatus,
  type ParsedReading,
  type RiskState,
  type VitalsStatus,
} from '@pawguard/shared';
import type { NewReadingRow } from '../repositories/readings-repository.js';
import { presentSince, type IngestDevice, type OffNews } from './ingest-device.js';

/** What a batch's readings of one collar are judged to be, and what the collar's model keeps. */
export interface Evaluation {
  /** The rows to insert, oldest first, each with its status and heat risk. */
  rows: NewReadingRow[];
  /** The heat-risk model's memory after these readings. */
  risk: RiskState;
  /**
   * Readings judged off the dog or without any sign of it (below the owner's critical
   * threshold they raise no heat alert, decision 0034).
   */
  offReadings: Set<number>;
  /**
   * The off spell to tell the owner of with this batch, if any (the alerts tell it by day): one
   * begun in this batch, or in an earlier one without a present (a backlog's list or slice)
   * whose episode goes on. None in a batch without a present: the news waits in the model's
   * state (decision 0023).
   */
  offNews: OffNews | null;
  /**
   * Where this batch's present begins, for the collar's own news (`ownNewsSince`): null when
   * the batch has no reading newer than the collar's latest, or is history (decision 0023).
   */
  present: number | null;
}

/**
 * Judges one collar's readings of a batch (by time): its status by the owner's thresholds and
 * the heat risk of each, from the device as stored before the batch and its risk state. Pure:
 * no I/O, the device is not changed. Readings newer than the device's latest are judged in
 * time order from its current status (the 1 °F hysteresis needs the level it is at) and step
 * the heat-risk model; older ones (a backlog) are judged each on its own and never feed that
 * chain, though they still count towards their day's heat (acclimatisation). The dog's one
 * level of a reading is the higher of the two (`dogLevel`), read from the row.
 */
export function evaluate(
  device: IngestDevice,
  times: Map<number, ParsedReading>,
  nowMs: number,
): Evaluation {
  const rows: NewReadingRow[] = [];
  const latest = presentSince(device.state);
  let previous = (device.state.vitals_status as VitalsStatus | null) ?? null;
  let state = device.risk;
  const offReadings = new Set(device.collarOff.readings);
  let offNewsAt = device.risk.offNewsAt;
  let firstAt: number | undefined;
  let newestAt: number | undefined;
  for (const [at, r] of [...times.entries()].sort((a, b) => a[0] - b[0])) {
    const newer = at > latest;
    const status = vitalsStatus(r, device.thresholds, newer ? previous : null);
    if (newer) previous = status;
    const input = { ...r, at };
    let risk;
    if (newer) {
      firstAt ??= at;
      newestAt = at;
      ({ state, assessment: risk } = riskStep(state, input, device.profile));
      if (risk.noSign) offReadings.add(at);
      if (risk.collarOffNews) offNewsAt = at;
    } else {
      state = recordDay(state, input);
      risk = assessAlone(input, device.profile);
    }
    rows.push({
      risk_band: risk.band,
      risk_score: risk.score,
      risk_reasons: JSON.stringify(risk.reasons),
      device_uuid: device.id,
      recorded_at: at,
      received_at: nowMs,
      temperature: r.temperature,
      humidity: r.humidity,
      heart_rate: r.heart_rate ?? null,
      activity_level: r.activity_level ?? null,
      battery: r.battery ?? null,
      status,
      reported_status: r.status ?? null,
      lat: r.location?.lat ?? null,
      lon: r.location?.lon ?? null,
    });
  }
  // Told with this batch: at the spell's start when that reading is in its present, else at
  // its newest while the collar is still judged off there. Not told (no present, or the
  // collar back on), the news waits while its episode may go on: the collar off, or a spell
  // that would join it may still begin (the model counts from the start of the quiet that
  // makes the next spell, so a quiet stretch begun within the gap keeps it too).
  const since = newestAt === undefined ? null : ownNewsSince(newestAt, nowMs);
  const tellAt =
    since === null || offNewsAt === null
      ? null
      : offNewsToTell(
          offNewsAt,
          Math.max(since, firstAt!),
          state.offSince !== null ? newestAt! : null,
        );
  const episodeOn =
    state.offSince !== null ||
    (state.offEndedAt !== null &&
      (state.quietSince ?? state.at) - state.offEndedAt <= OFF_EPISODE_GAP_MS);
  const waiting = tellAt === null && episodeOn ? offNewsAt : null;
  if (waiting !== state.offNewsAt) state = { ...state, offNewsAt: waiting };
  const offNews = tellAt === null ? null : { startedAt: offNewsAt!, tellAt };
  return { rows, risk: state, offReadings, offNews, present: since };
}
