import type { Kysely } from 'kysely';
import type { Alert } from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AlertsRepository } from '../repositories/alerts-repository.js';
import type { NotificationsRepository } from '../repositories/notifications-repository.js';
import type { DevicesRepository } from '../repositories/devices-repository.js';
import { noEffects, type CommitEffects } from '../services/commit-effects.js';
import type { Clock } from '../services/clock.js';
import { BadRequestError, ConflictError } from '../services/errors.js';

/**
 * What an owner does to an alert of their collar: resolve it, or acknowledge an open heat
 * alert. Each in a transaction that takes the device row's lock as ingest takes it, so a batch
 * in flight either comes first or sees the owner's change; the change reaches the owner's live
 * stream after the commit.
 */
export class AlertActions {
  constructor(
    private readonly d: {
      db: Kysely<Database>;
      alerts: AlertsRepository;
      notifications: NotificationsRepository;
      devices: DevicesRepository;
      /** Where the change goes once committed: the owner's live stream. */
      effects: CommitEffects;
      clock: Clock;
      /** PostgreSQL: take the device row's lock where ingest takes it too. */
      lockRows: boolean;
    },
  ) {}

  /**
   * The owner resolves an alert of their collar (the route has checked that the caller owns
   * it: an admin may read another owner's alerts but not resolve them); answers it as it is
   * now (already resolved: as it was), or undefined when the device has no such alert.
   */
  async resolve(deviceUuid: string, alertId: string): Promise<Alert | undefined> {
    const outcome = await this.d.db.transaction().execute(async (trx) => {
      // The device row's lock, as ingest takes it: a batch in flight either sees this alert
      // resolved or finished with it first, and never escalates an alert just resolved.
      await this.d.devices.lockRow(deviceUuid, trx, this.d.lockRows);
      const row = await this.d.alerts.findForDevice(deviceUuid, alertId, trx);
      if (!row) return undefined;
      const at = this.d.clock.now().toISOString();
      const resolvedNow = await this.d.alerts.resolve(alertId, at, 'owner', trx);
      const [alert] = await this.d.alerts.answers([alertId], trx);
      return alert && { alert, ownerId: row.user_id, resolvedNow };
    });
    if (!outcome) return undefined;
    if (outcome.resolvedNow) this.publishChange(outcome.ownerId, outcome.alert);
    return outcome.alert;
  }

  /**
   * The owner acknowledges an open heat alert (decision 0037; the route, or the acknowledge
   * link, has checked that `by` owns the collar): it stays open, so a reading that is still hot opens nothing new and
   * mails nothing, and PawGuard keeps watching — an escalation notifies as always and asks again.
   * Its notifications are marked read. Answers the alert as it is now (already acknowledged: as
   * it was), undefined when the device has no such alert; a resolved alert or another type is a
   * ConflictError / BadRequestError.
   */
  async acknowledge(deviceUuid: string, alertId: string, by: string): Promise<Alert | undefined> {
    const outcome = await this.d.db.transaction().execute(async (trx) => {
      // The device row's lock, as ingest takes it: an escalation in flight either comes first
      // (and this acknowledges the raised alert) or after (and clears this acknowledgement).
      await this.d.devices.lockRow(deviceUuid, trx, this.d.lockRows);
      const row = await this.d.alerts.findForDevice(deviceUuid, alertId, trx);
      if (!row) return undefined;
      if (row.type !== 'heat') throw new BadRequestError('Only a heat alert can be acknowledged');
      if (row.resolved_at !== null) throw new ConflictError('This alert is already resolved');
      const at = this.d.clock.now().toISOString();
      const acknowledgedNow = await this.d.alerts.acknowledge(alertId, at, by, trx);
      if (acknowledgedNow) await this.d.notifications.markReadForAlert(alertId, at, trx);
      const [alert] = await this.d.alerts.answers([alertId], trx);
      return alert && { alert, ownerId: row.user_id, acknowledgedNow };
    });
    if (!outcome) return undefined;
    if (outcome.acknowledgedNow) this.publishChange(outcome.ownerId, outcome.alert);
    return outcome.alert;
  }

  /** An owner's change to an alert, on their live stream (after the commit). */
  private publishChange(ownerId: string, alert: Alert): void {
    this.d.effects.handle(
      { ...noEffects(), events: [{ audience: [ownerId], event: { type: 'alert', alert } }] },
      'alert event not published',
    );
  }
}
