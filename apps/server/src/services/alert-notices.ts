import type { Transaction } from 'kysely';
import type { Alert, Notification, TemperatureUnit } from '@pawguard/shared';
import type { Database } from '../db/schema.js';

/**
 * What the alert engine tells the rest of the server when it records a notification: an
 * alert opened or escalated. Listeners run inside the transaction that recorded it (the
 * ingest commit or the offline sweep), so what they write — the e-mail outbox row, a digest
 * entry — commits together with the alert, or not at all.
 */
export interface AlertNotice {
  notification: Notification;
  alert: Alert;
  /**
   * The person told: the collar's owner, or a member of its pet's pack (docs/pack.md), each
   * told apart. `timeZone` (IANA) names mail times on their clock, null: UTC;
   * `temperatureUnit` is the unit their temperatures lead with (the other follows).
   */
  owner: {
    id: string;
    email: string;
    name: string;
    timeZone: string | null;
    temperatureUnit: TemperatureUnit;
  };
  /** The reading that opened or escalated the alert; null for offline. */
  reading: {
    temperature: number;
    humidity: number;
    heat_index_f: number;
    battery: number | null;
    /** ISO-8601 UTC, the collar's time. */
    timestamp: string;
  } | null;
}

/** Takes a notice inside its transaction; answers true when it queued mail in the outbox. */
export type AlertNoticeListener = (
  trx: Transaction<Database>,
  notice: AlertNotice,
  now: Date,
) => Promise<boolean>;
