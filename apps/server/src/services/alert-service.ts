import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  presentHorizon,
  batteryStep,
  celsiusToFahrenheit,
  temperatureUnitOf,
  type TemperatureUnit,
  heatIndexF,
  heatStep,
  dogLevel,
  asVitalsStatus,
  nextPeaks,
  type VitalsStatus,
  wallClock,
  readingsThatCount,
  type Alert,
  type Notification,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AlertRow, AlertsRepository } from '../repositories/alerts-repository.js';
import type { NotificationsRepository } from '../repositories/notifications-repository.js';
import type { DevicesRepository } from '../repositories/devices-repository.js';
import type { UsersRepository } from '../repositories/users-repository.js';
import type { OfflineSweepRepository } from '../repositories/offline-sweep-repository.js';
import { AlertActions } from '../alerts/alert-actions.js';
import { newAlert, readingTime, type PendingNotice } from '../alerts/alert-rows.js';
import {
  notificationText,
  OVER_BUDGET_REASON,
  reasonsFor,
  type Subject,
} from '../alerts/notification-wording.js';
import { OfflineSweep } from '../alerts/offline-sweep.js';
import { UnacknowledgedSweep } from '../alerts/unacknowledged-sweep.js';
import type { ReadingsRepository } from '../repositories/readings-repository.js';
import type { AckLinks } from './ack-links.js';
import { ConflictError } from './errors.js';
import type { PetAccess } from './pet-access.js';
import type { PackRepository } from '../repositories/pack-repository.js';
import type { AlertNotice, AlertNoticeListener } from './alert-notices.js';
import type { BusMessage } from './event-bus.js';
import type { IngestDevice, StoredReading } from '../ingest/ingest-device.js';
import type { CommitEffects, Effects } from './commit-effects.js';
import type { Clock } from './clock.js';

/** A collar over its ingest budget is told to its owner at most this often. */
const OVER_BUDGET_NOTICE_MS = 24 * 60 * 60 * 1000;

/**
 * Alerts and notifications (DESIGN §3). Inside each ingest transaction it applies the alert
 * rules (packages/shared alert-engine) to the readings the batch stored, in time order;
 * every opening and escalation becomes a notification for the owner and an AlertNotice for
 * the alert mail (its outbox row or digest entry), all in that transaction. What it caused
 * (the alert and notification events for the owner's stream, mail queued) is answered as one
 * value, handled once committed. The same record is made for the collars that fell silent
 * (alerts/offline-sweep.ts) and for a collar over its ingest budget; the owner's own actions,
 * resolve and acknowledge, are alerts/alert-actions.ts. What a notification says is
 * alerts/notification-wording.ts.
 *
 * Backlogs (decision 0023): only readings newer than the device's latest before the batch
 * take part; an older reading is history, and never opens, escalates or resolves anything.
 */
export class AlertService {
  private readonly offline: OfflineSweep;
  private readonly unacknowledged: UnacknowledgedSweep;
  private readonly actions: AlertActions;
  /** Collars told over budget by this instance, and when (the database has the last word). */
  private readonly overBudgetTold = new Map<string, number>();

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      alerts: AlertsRepository;
      notifications: NotificationsRepository;
      devices: DevicesRepository;
      /** The offline sweep's queries (silent collars; the guarded UPDATE that takes one offline). */
      offlineSweep: OfflineSweepRepository;
      users: UsersRepository;
      /** The latest reading a "not yet acknowledged" reminder is told with. */
      readings: ReadingsRepository;
      /** Signs and checks the acknowledge links of mails and pushes. */
      ackLinks: AckLinks;
      /** What a person is to a collar's pet (the acknowledge link's person, docs/pack.md). */
      pets: PetAccess;
      /** Who else hears of a collar's alerts: its pet's pack (docs/pack.md). */
      pack: PackRepository;
      /** The alert mail: told of every opening and escalation, inside its transaction. */
      mail: { onNotice: AlertNoticeListener };
      /** The alert push: told of the same, queues a push per browser in the same transaction. */
      push: { onNotice: AlertNoticeListener };
      /** Where this service's own transactions' effects go once committed. */
      effects: CommitEffects;
      clock: Clock;
      log: FastifyBaseLogger;
      /** PostgreSQL: take the device row's lock where ingest takes it too. */
      lockRows: boolean;
    },
  ) {
    this.offline = new OfflineSweep({
      db: d.db,
      devices: d.offlineSweep,
      alerts: d.alerts,
      effects: d.effects,
      clock: d.clock,
      log: d.log,
      record: (...args) => this.record(...args),
    });
    this.unacknowledged = new UnacknowledgedSweep({
      ...d,
      record: (...args) => this.record(...args),
    });
    this.actions = new AlertActions(d);
  }

  /**
   * Applies the alert rules to what one ingest batch stored for a device, inside the ingest
   * transaction (ingest/ingest-service.ts calls it); answers what it caused. Cheap when
   * nothing can change: no query at all.
   */
  readonly apply = async (
    trx: Transaction<Database>,
    device: IngestDevice,
    stored: StoredReading[],
    now: Date,
  ): Promise<Effects | undefined> => {
    const before = device.previous;
    const newer = readingsThatCount(
      presentHorizon(before.vitals_recorded_at, before.last_seen),
      stored,
      (s) => Number(s.row.recorded_at),
    );
    // Offline opens only on an active collar, but an admin may have set one in maintenance
    // since: any collar not plainly active may have an offline alert for this arrival to end.
    const wasOffline = before.status !== 'active';
    // The heat alert follows the dog's one level: the higher of the owner's thresholds (the
    // stored column) and the heat-risk model.
    const levelBefore = dogLevel(asVitalsStatus(before.vitals_status), before.risk_band) ?? 'SAFE';
    // A reading from a collar judged off its dog says nothing the model can read: its band,
    // triggers and memory are set aside, and so is the thresholds' WARNING (a sunny sill). But
    // "off" rests on a missing heart rate and no movement, which a worn collar whose sensor lost
    // the skin also sends, on a still dog in a hot car: the thresholds' DANGER and CRITICAL stay
    // hard limits and open or raise the alert all the same (decision 0034). Below them an off
    // reading neither opens, raises nor ends a heat alert.
    const off = (s: StoredReading) => device.collarOff.readings.has(Number(s.row.recorded_at));
    const alertLevel = (s: StoredReading): VitalsStatus | null =>
      !off(s) ? heatLevel(s) : s.status === 'DANGER' || s.status === 'CRITICAL' ? s.status : null;
    const judged = newer.filter((s) => alertLevel(s) !== null);
    const worn = newer.filter((s) => !off(s));
    const heatMayMove =
      judged.some((s) => alertLevel(s) !== 'SAFE') || (levelBefore !== 'SAFE' && judged.length > 0);
    // The owner's row (time zone, temperature unit): read once, and only when needed.
    let ownerRow: Promise<Awaited<ReturnType<typeof this.d.users.findById>>> | undefined;
    const owner = () => (ownerRow ??= this.d.users.findById(device.user_id, trx));
    // The collar's own news (off its dog, battery low) is told of its present only (as
    // evaluate.ts judged it): a backlog of hours or weeks would otherwise tell of every charger
    // session and low battery in it.
    const since = device.present;
    // "Collar off?": told once per off spell that begins in the day (the owner's day, in their
    // time zone; UTC when unknown), at the reading ingest chose (evaluate.ts: the spell's start,
    // or this batch's newest for a spell begun in an older list of a backlog); ended when it
    // is back on.
    const news = device.collarOff.news;
    const tellOff = news !== null && isDaytime(news.startedAt, (await owner())?.time_zone ?? null);
    const offNewsAt = tellOff ? news!.tellAt : null;
    const collarMayMove =
      tellOff ||
      ((device.collarOff.before || device.collarOff.readings.size > 0) && worn.length > 0);
    let armed = device.batteryAlertArmed;
    // Low battery follows the present alone: an old low value neither opens the alert nor
    // disarms it, so the first low reading of the present still does.
    const batteryReadings =
      since === null ? [] : newer.filter((s) => Number(s.row.recorded_at) >= since);
    // With the arm as it is, the first reading that would change anything shows it.
    const batteryMayMove = batteryReadings.some(
      (s) => batteryStep(armed, s.row.battery).kind !== 'none',
    );
    if (!wasOffline && !heatMayMove && !batteryMayMove && !collarMayMove) return;

    const open = new Map((await this.d.alerts.openFor(device.id, trx)).map((a) => [a.type, a]));
    const at = now.toISOString();
    const touched = new Set<string>();
    const notices: PendingNotice[] = [];

    // Back from silence: its next reading resolves the offline alert (the status is active
    // again already).
    const offline = open.get('offline');
    if (offline) {
      const first = newer[0];
      await this.d.alerts.resolve(
        offline.id,
        at,
        'condition',
        trx,
        first ? readingTime(first.row) : null,
      );
      touched.add(offline.id);
    }

    // Reasons are worded in the owner's temperature unit.
    const ownerUnit = async (): Promise<TemperatureUnit> =>
      temperatureUnitOf((await owner())?.temperature_unit);

    let heat = open.get('heat') ?? null;
    for (const s of judged) {
      const { row } = s;
      const step = heatStep(heat && heat.level ? { level: heat.level } : null, alertLevel(s)!);
      const peaks = {
        temperatureC: row.temperature,
        heatIndexF: heatIndexF(celsiusToFahrenheit(row.temperature), row.humidity),
      };
      if (step.kind === 'none') continue;
      if (step.kind === 'open') {
        heat = newAlert({
          device_uuid: device.id,
          user_id: device.user_id,
          type: 'heat',
          level: step.level,
          opened_at: at,
          reading_at: readingTime(row),
          peak_temperature_celsius: peaks.temperatureC,
          peak_heat_index_f: peaks.heatIndexF,
          reasons: JSON.stringify(reasonsFor(s, device.thresholds, await ownerUnit(), off(s))),
        });
        await this.d.alerts.insert(heat, trx);
        notices.push({ kind: 'opened', alert: heat, reading: row });
      } else if (heat) {
        const p = nextPeaks(
          { temperatureC: heat.peak_temperature_celsius, heatIndexF: heat.peak_heat_index_f },
          peaks,
        );
        const changes: Partial<AlertRow> = {};
        if (p.temperatureC !== heat.peak_temperature_celsius)
          changes.peak_temperature_celsius = p.temperatureC;
        if (p.heatIndexF !== heat.peak_heat_index_f) changes.peak_heat_index_f = p.heatIndexF;
        if (step.kind === 'escalate') {
          changes.level = step.to;
          changes.escalated_at = at;
          // Worse than what the owner acknowledged: it asks for them again (decision 0037).
          changes.acknowledged_at = null;
          changes.acknowledged_by = null;
          changes.reasons = JSON.stringify(
            reasonsFor(s, device.thresholds, await ownerUnit(), off(s)),
          );
        }
        if (step.kind === 'resolve') {
          changes.resolved_at = at;
          changes.resolved_by = 'condition';
          changes.resolved_reading_at = readingTime(row);
        }
        if (Object.keys(changes).length) {
          await this.d.alerts.update(heat.id, changes, trx);
          heat = { ...heat, ...changes };
          touched.add(heat.id);
        }
        if (step.kind === 'escalate')
          notices.push({ kind: 'escalated', alert: heat, reading: row });
        if (step.kind === 'resolve') heat = null;
      }
    }

    let collarOff = open.get('collar_off') ?? null;
    if (collarMayMove)
      for (const s of newer) {
        const { row } = s;
        if (tellOff && Number(row.recorded_at) === offNewsAt && !collarOff) {
          collarOff = newAlert({
            device_uuid: device.id,
            user_id: device.user_id,
            type: 'collar_off',
            opened_at: at,
            reading_at: readingTime(row),
          });
          await this.d.alerts.insert(collarOff, trx);
          notices.push({ kind: 'opened', alert: collarOff, reading: row });
        } else if (collarOff && !off(s)) {
          await this.d.alerts.resolve(collarOff.id, at, 'condition', trx, readingTime(row));
          touched.add(collarOff.id);
          collarOff = null;
        }
      }

    // Low battery, once per discharge.
    let lowBattery = open.get('low_battery') ?? null;
    for (const { row } of batteryReadings) {
      const step = batteryStep(armed, row.battery);
      if (step.kind === 'open') {
        armed = false;
        if (lowBattery) continue; // still open from before (the arm was reset by hand)
        lowBattery = newAlert({
          device_uuid: device.id,
          user_id: device.user_id,
          type: 'low_battery',
          opened_at: at,
          reading_at: readingTime(row),
          battery_level: row.battery,
        });
        await this.d.alerts.insert(lowBattery, trx);
        notices.push({ kind: 'opened', alert: lowBattery, reading: row });
      } else if (step.kind === 'rearm') {
        armed = true;
        if (lowBattery) {
          await this.d.alerts.resolve(lowBattery.id, at, 'condition', trx, readingTime(row));
          touched.add(lowBattery.id);
          lowBattery = null;
        }
      }
    }
    if (armed !== device.batteryAlertArmed) {
      await this.d.devices.update(device.id, { battery_alert_armed: armed ? 1 : 0 }, { ex: trx });
      device.batteryAlertArmed = armed;
    }

    for (const n of notices) touched.add(n.alert.id);
    if (touched.size === 0) return;
    return this.record(trx, device.user_id, device.id, [...touched], notices, now);
  };

  /**
   * Writes the notifications of some notices, tells the alert mail and push (in `trx`), and
   * answers what they caused: the live events to publish, the mail and pushes to deliver after
   * the commit.
   */
  private async record(
    trx: Transaction<Database>,
    ownerId: string,
    deviceUuid: string,
    touched: string[],
    notices: PendingNotice[],
    now: Date,
  ): Promise<Effects> {
    const alerts = new Map((await this.d.alerts.answers(touched, trx)).map((a) => [a.id, a]));
    // The owner sees the alert (admins too, and the pet's pack: the stream hub adds them).
    const messages: BusMessage[] = [...alerts.values()].map((alert) => ({
      audience: [ownerId],
      event: { type: 'alert', alert },
    }));
    // Everyone who hears of the collar's alerts: its owner and its pet's pack (docs/pack.md),
    // each with a notification of their own, told by their own mail and push settings.
    const told = notices.length ? await this.told(deviceUuid, trx, now) : null;
    let mailQueued = false;
    let pushQueued = false;
    for (const [i, n] of notices.entries()) {
      const alert = alerts.get(n.alert.id)!;
      // One batch may open and escalate: a millisecond apart, so "newest first" lists the
      // escalation above its opening.
      const created = new Date(now.getTime() + i).toISOString();
      for (const person of told!.people) {
        const { title, message } = notificationText(
          n,
          alert,
          { ...told!.subject, owner: person },
          now,
        );
        const row = {
          id: randomUUID(),
          user_id: person.id,
          alert_id: n.alert.id,
          kind: n.kind,
          level: n.kind === 'escalated' || n.alert.type === 'heat' ? n.alert.level : null,
          title,
          message,
          read_at: null,
          created_at: created,
        };
        await this.d.notifications.insert(row, trx);
        const notification: Notification = {
          id: row.id,
          kind: row.kind,
          alert_id: row.alert_id,
          alert_type: alert.type,
          level: row.level,
          device: alert.device,
          device_id: alert.device_id,
          dog_name: alert.dog_name,
          title,
          message,
          read: false,
          created_at: created,
          acknowledged_at: alert.acknowledged_at,
          acknowledged_by_name: alert.acknowledged_by_name,
        };
        const notice: AlertNotice = {
          notification,
          alert,
          owner: person,
          reading: n.reading && {
            temperature: n.reading.temperature,
            humidity: n.reading.humidity,
            heat_index_f: heatIndexF(
              celsiusToFahrenheit(n.reading.temperature),
              n.reading.humidity,
            ),
            battery: n.reading.battery,
            timestamp: readingTime(n.reading),
          },
        };
        if (await this.d.mail.onNotice(trx, notice, now)) mailQueued = true;
        if (await this.d.push.onNotice(trx, notice, now)) pushQueued = true;
        messages.push({
          audience: [person.id],
          personal: true,
          event: { type: 'notification', notification },
        });
      }
    }
    return {
      events: messages,
      // The outbox worker is woken only for mail this commit queued (a digest's is its own).
      mail: mailQueued,
      push: pushQueued,
      opened: notices.filter((n) => n.kind === 'opened').map(({ alert: a }) => a),
    };
  }

  /**
   * What a collar's notices name (the collar and its pet) and who is told: its owner, then the
   * active members of its pet's pack.
   */
  private async told(
    deviceUuid: string,
    ex: Transaction<Database>,
    now: Date,
  ): Promise<{ subject: Omit<Subject, 'owner'>; people: AlertNotice['owner'][] }> {
    const d = await this.d.devices.findById(deviceUuid, ex);
    const members = d?.user_id
      ? await this.d.pack.activeMembersOfDevice(deviceUuid, now.toISOString(), ex)
      : [];
    const people: AlertNotice['owner'][] = [];
    for (const id of [d?.user_id, ...members.map((m) => m.user_id)]) {
      const user = id ? await this.d.users.findById(id, ex) : undefined;
      if (!user) continue;
      people.push({
        id: user.id,
        email: user.email,
        name: user.name,
        timeZone: user.time_zone ?? null,
        temperatureUnit: temperatureUnitOf(user.temperature_unit),
      });
    }
    return {
      subject: {
        deviceId: d?.device_id ?? '',
        deviceName: d?.device_name ?? '',
        dogName: d?.dog_name ?? null,
      },
      people,
    };
  }

  /**
   * Tells a collar's owner that its readings are being refused (RES-7): an `over_budget`
   * alert and its notification, unless one is open or opened in the last 24 hours, so at
   * most once a day per collar. Answers whether it told them.
   */
  async tellOverBudget(deviceUuid: string, why: 'rate' | 'quota'): Promise<boolean> {
    const now = this.d.clock.now();
    const told = this.overBudgetTold.get(deviceUuid);
    if (told !== undefined && now.getTime() - told < OVER_BUDGET_NOTICE_MS) return false;
    if (this.overBudgetTold.size >= 10_000) this.overBudgetTold.clear();
    this.overBudgetTold.set(deviceUuid, now.getTime());
    const since = new Date(now.getTime() - OVER_BUDGET_NOTICE_MS).toISOString();
    const outcome = await this.d.db
      .transaction()
      .execute(async (trx) => {
        await this.d.devices.lockRow(deviceUuid, trx, this.d.lockRows);
        const device = await this.d.devices.findById(deviceUuid, trx);
        if (!device?.user_id) return null;
        if (await this.d.alerts.anySince(deviceUuid, 'over_budget', since, trx)) return null;
        const at = now.toISOString();
        const alert = newAlert({
          device_uuid: deviceUuid,
          user_id: device.user_id,
          type: 'over_budget',
          opened_at: at,
          reading_at: null,
          reasons: JSON.stringify([OVER_BUDGET_REASON[why]]),
        });
        await this.d.alerts.insert(alert, trx);
        return this.record(
          trx,
          device.user_id,
          deviceUuid,
          [alert.id],
          [{ kind: 'opened', alert, reading: null }],
          now,
        );
      })
      .catch((err: unknown) => {
        // Not recorded: the next refusal may try again.
        this.overBudgetTold.delete(deviceUuid);
        throw err;
      });
    if (!outcome) return false;
    this.d.effects.handle(outcome, 'over-budget alert events not published');
    return true;
  }

  /** The offline sweep (alerts/offline-sweep.ts); answers how many collars went offline. */
  sweepOffline(): Promise<number> {
    return this.offline.sweep();
  }

  /** The owner resolves an alert of their collar (alerts/alert-actions.ts). */
  resolveByOwner(deviceUuid: string, alertId: string): Promise<Alert | undefined> {
    return this.actions.resolve(deviceUuid, alertId);
  }

  /** The owner (`by`) acknowledges an open heat alert (alerts/alert-actions.ts). */
  acknowledgeByOwner(deviceUuid: string, alertId: string, by: string): Promise<Alert | undefined> {
    return this.actions.acknowledge(deviceUuid, alertId, by);
  }

  /**
   * Acknowledges the alert a signed link names, for the person it was made for, while they still
   * own its collar or are in its pet's pack: undefined when the link is not valid (expired, altered) or its alert is not
   * theirs (any more); a resolved alert is a ConflictError, as from the card.
   */
  async acknowledgeByLink(token: string): Promise<Alert | undefined> {
    const claims = await this.d.ackLinks.verify(token, this.d.clock.now());
    if (!claims) return undefined;
    const row = await this.d.alerts.findById(claims.alertId);
    const device = row && (await this.d.devices.findById(row.device_uuid));
    if (!row || !device) return undefined;
    // Its person must still be the collar's owner or in its pet's pack (not as an admin).
    const as = await this.d.pets.device({ id: claims.userId, role: 'user' }, device);
    if (!as) return undefined;
    // Raised since the link was sent: the person has not seen what it is now.
    if (row.resolved_at === null && row.level !== null && row.level !== claims.level)
      throw new ConflictError(
        `This alert has been raised to ${row.level} since. Open PawGuard to see it and acknowledge it there.`,
      );
    return this.actions.acknowledge(row.device_uuid, row.id, claims.userId);
  }

  /**
   * The reminder sweep (alerts/unacknowledged-sweep.ts); answers how many DANGER or CRITICAL
   * alerts nobody acknowledged in time were sent again.
   */
  sweepUnacknowledged(): Promise<number> {
    return this.unacknowledged.sweep();
  }

  startSweeping(): void {
    this.offline.start();
    this.unacknowledged.start();
  }

  async stopSweeping(): Promise<void> {
    await Promise.all([this.offline.stop(), this.unacknowledged.stop()]);
  }
}

/** The owner hears of a collar taken off between these hours (local), not at night. */
const DAY_HOURS = [7, 22] as const;

/** Whether a moment is in the day (07:00–22:00) in a time zone (UTC when unknown). */
function isDaytime(atMs: number, timeZone: string | null): boolean {
  const { hour } = wallClock(atMs, timeZone ?? 'UTC');
  return hour >= DAY_HOURS[0] && hour < DAY_HOURS[1];
}

/** A reading's heat level: the dog's one level, as its answers carry it. */
function heatLevel({ row, status }: StoredReading): VitalsStatus {
  return dogLevel(status, asVitalsStatus(row.risk_band)) ?? status;
}
