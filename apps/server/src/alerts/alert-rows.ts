import { randomUUID } from 'node:crypto';
import type { AlertRow } from '../repositories/alerts-repository.js';
import type { ReadingRow } from '../repositories/readings-repository.js';

/** An opening or escalation, written as an alert row, whose notification is yet to be recorded. */
export interface PendingNotice {
  /** `unacknowledged`: a DANGER or CRITICAL alert nobody acknowledged in time, told again. */
  kind: 'opened' | 'escalated' | 'unacknowledged';
  alert: AlertRow;
  /** The reading that opened or escalated it; null for offline and over budget. */
  reading: ReadingRow | null;
}

/** A new open alert: what it is, whose, and since when; everything else empty until it moves. */
export function newAlert(
  fields: Pick<AlertRow, 'device_uuid' | 'user_id' | 'type' | 'opened_at' | 'reading_at'> &
    Partial<AlertRow>,
): AlertRow {
  return {
    id: randomUUID(),
    level: null,
    escalated_at: null,
    resolved_at: null,
    resolved_by: null,
    resolved_reading_at: null,
    peak_temperature_celsius: null,
    peak_heat_index_f: null,
    battery_level: null,
    reasons: null,
    acknowledged_at: null,
    acknowledged_by: null,
    reminded_level: null,
    reminded_at: null,
    ...fields,
  };
}

/** The collar's time of a reading, ISO-8601 UTC. */
export const readingTime = (row: ReadingRow) => new Date(Number(row.recorded_at)).toISOString();
