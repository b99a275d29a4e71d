import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  presentHorizon,
  batteryStep,
  celsiusToFahrenheit,
  fahrenheitToCelsius,
  formatCelsius,
  formatFahrenheit,
  formatTemperature,
  temperatureUnitOf,
  type TemperatureUnit,
  heatIndexF,
  heatIndexQuotable,
  EXTREME_HEAT,
  heatStep,
  dogLevel,
  levelSetBy,
  asVitalsStatus,
  nextPeaks,
  parseReasons,
  thresholdReason,
  type VitalsStatus,
  wallClock,
  formatZonedTime,
  offlineCutoff,
  readingsThatCount,
  type Alert,
  type AlertLevel,
  type Notification,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AlertRow, AlertsRepository } from '../repositories/alerts-repository.js';
import type { NotificationsRepository } from '../repositories/notifications-repository.js';
import type { DevicesRepository } from '../repositories/devices-repository.js';
import type { UsersRepository } from '../repositories/users-repository.js';
import type { ReadingRow } from '../repositories/readings-repository.js';
import type { AlertNotice, AlertNoticeListener } from './alert-notices.js';
import type { BusMessage } from './event-bus.js';
import type { IngestDevice, StoredReading } from '../ingest/ingest-device.js';
import { noEffects, type CommitEffects, type Effects } from './commit-effects.js';
import type { Clock } from './clock.js';
import { BadRequestError, ConflictError } from './errors.js';

/** A collar over its ingest budget is told to its owner at most this often. */
const OVER_BUDGET_NOTICE_MS = 24 * 60 * 60 * 1000;

/** How often the offline sweep looks for silent collars. */
export const OFFLINE_SWEEP_MS = 30_000;
/** Collars taken offline per sweep transaction batch (the rest wait for the next sweep). */
const SWEEP_BATCH = 200;

const LEVEL_WORD: Record<AlertLevel, string> = {
  WARNING: 'Warning',
  DANGER: 'Danger',
  CRITICAL: 'Critical',
};

/** What a notice needs to name: the collar, its pet and its owner. */
interface Subject {
  deviceId: string;
  deviceName: string;
  dogName: string | null;
  owner: AlertNotice['owner'];
}

interface PendingNotice {
  kind: 'opened' | 'escalated';
  alert: AlertRow;
  reading: ReadingRow | null;
}

/**
 * Alerts and notifications (DESIGN §3). Inside each ingest transaction it applies the alert
 * rules (packages/shared alert-engine) to the readings the batch stored, in time order;
 * every opening and escalation becomes a notification for the owner and an AlertNotice for
 * the alert mail (its outbox row or digest entry), all in that transaction. What it caused
 * (the alert and notification events for the owner's stream, mail queued) is answered as one
 * value, handled once committed. The offline sweep does the same for collars that fell silent.
 *
 * Backlogs (decision 0023): only readings newer than the device's latest before the batch
 * take part; an older reading is history, and never opens, escalates or resolves anything.
 */
export class AlertService {
  private sweepTimer: NodeJS.Timeout | undefined;
  /** Silence before this instance began listening was our outage, not the collars'. */
  private listeningSince: Date;
  private sweeping: Promise<unknown> | undefined;
  /** Collars told over budget by this instance, and when (the database has the last word). */
  private readonly overBudgetTold = new Map<string, number>();

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      alerts: AlertsRepository;
      notifications: NotificationsRepository;
      devices: DevicesRepository;
      users: UsersRepository;
      /** The alert mail: told of every opening and escalation, inside its transaction. */
      mail: { onNotice: AlertNoticeListener };
      /** Where this service's own transactions' effects go once committed. */
      effects: CommitEffects;
      clock: Clock;
      log: FastifyBaseLogger;
      /** PostgreSQL: take the device row's lock where ingest takes it too. */
      lockRows: boolean;
    },
  ) {
    this.listeningSince = d.clock.now();
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
    // "Collar off?": told once per off spell that begins in the day (the owner's day, in their
    // time zone; UTC when unknown); ended when it is back on.
    const offNewsAt = device.collarOff.newsAt;
    const tellOff = offNewsAt !== null && isDaytime(offNewsAt, (await owner())?.time_zone ?? null);
    const collarMayMove =
      tellOff ||
      ((device.collarOff.before || device.collarOff.readings.size > 0) && worn.length > 0);
    let armed = device.batteryAlertArmed;
    // With the arm as it is, the first reading that would change anything shows it.
    const batteryMayMove = newer.some((s) => batteryStep(armed, s.row.battery).kind !== 'none');
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
          device_id: device.id,
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
            device_id: device.id,
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
    for (const { row } of newer) {
      const step = batteryStep(armed, row.battery);
      if (step.kind === 'open') {
        armed = false;
        if (lowBattery) continue; // still open from before (the arm was reset by hand)
        lowBattery = newAlert({
          device_id: device.id,
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
   * Writes the notifications of some notices, tells the alert mail (in `trx`), and answers
   * what they caused: the live events to publish and the mail to deliver after the commit.
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
    // The owner sees the alert (admins too); the notification is the owner's alone.
    const messages: BusMessage[] = [...alerts.values()].map((alert) => ({
      audience: [ownerId],
      event: { type: 'alert', alert },
    }));
    const subject = notices.length ? await this.subject(deviceUuid, trx) : null;
    for (const [i, n] of notices.entries()) {
      const alert = alerts.get(n.alert.id)!;
      const { title, message } = describe(n, alert, subject!, now);
      // One batch may open and escalate: a millisecond apart, so "newest first" lists the
      // escalation above its opening.
      const created = new Date(now.getTime() + i).toISOString();
      const row = {
        id: randomUUID(),
        user_id: n.alert.user_id,
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
      };
      const notice: AlertNotice = {
        notification,
        alert,
        owner: subject!.owner,
        reading: n.reading && {
          temperature: n.reading.temperature,
          humidity: n.reading.humidity,
          heat_index_f: heatIndexF(celsiusToFahrenheit(n.reading.temperature), n.reading.humidity),
          battery: n.reading.battery,
          timestamp: readingTime(n.reading),
        },
      };
      await this.d.mail.onNotice(trx, notice, now);
      messages.push({
        audience: [n.alert.user_id],
        personal: true,
        event: { type: 'notification', notification },
      });
    }
    return {
      events: messages,
      mail: notices.length > 0,
      opened: notices.filter((n) => n.kind === 'opened').map(({ alert: a }) => a),
    };
  }

  private async subject(deviceUuid: string, ex: Transaction<Database>): Promise<Subject> {
    const d = await this.d.devices.findById(deviceUuid, ex);
    const owner = d?.user_id ? await this.d.users.findById(d.user_id, ex) : undefined;
    return {
      deviceId: d?.device_id ?? '',
      deviceName: d?.device_name ?? '',
      dogName: d?.dog_name ?? null,
      owner: {
        id: owner?.id ?? '',
        email: owner?.email ?? '',
        name: owner?.name ?? '',
        timeZone: owner?.time_zone ?? null,
        temperatureUnit: temperatureUnitOf(owner?.temperature_unit),
      },
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
          device_id: deviceUuid,
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

  /**
   * Takes collars silent for 10 minutes offline and opens their offline alert. Each collar in
   * a transaction of its own, guarded by the condition itself (still active, still silent),
   * so of several instances sweeping at once exactly one acts on a collar, and a reading that
   * arrives meanwhile wins. Answers how many went offline.
   */
  async sweepOffline(): Promise<number> {
    const now = this.d.clock.now();
    const due = offlineCutoff(now, this.listeningSince);
    if (!due) return 0;
    const cutoff = due.toISOString();
    const candidates = await this.d.db
      .selectFrom('devices')
      .select(['id'])
      .where('status', '=', 'active')
      .where('user_id', 'is not', null)
      .where('last_seen', '<=', cutoff)
      .orderBy('last_seen')
      .limit(SWEEP_BATCH)
      .execute();
    let n = 0;
    for (const { id } of candidates) {
      const outcome = await this.d.db.transaction().execute(async (trx) => {
        const at = now.toISOString();
        const r = await trx
          .updateTable('devices')
          .set({ status: 'offline', updated_at: at })
          .where('id', '=', id)
          .where('status', '=', 'active')
          .where('user_id', 'is not', null)
          .where('last_seen', '<=', cutoff)
          .returning(['user_id', 'vitals_recorded_at', 'last_seen'])
          .executeTakeFirst();
        if (!r?.user_id) return null;
        const existing = (await this.d.alerts.openFor(id, trx)).find((a) => a.type === 'offline');
        const messages: BusMessage[] = [
          { audience: [r.user_id], event: { type: 'device', device: id, change: 'updated' } },
        ];
        if (existing) return { ...noEffects(), events: messages };
        const alert = newAlert({
          device_id: id,
          user_id: r.user_id,
          type: 'offline',
          opened_at: at,
          reading_at: r.vitals_recorded_at ?? r.last_seen,
        });
        await this.d.alerts.insert(alert, trx);
        const out = await this.record(
          trx,
          r.user_id,
          id,
          [alert.id],
          [{ kind: 'opened', alert, reading: null }],
          now,
        );
        return { ...out, events: [...messages, ...out.events] };
      });
      if (!outcome) continue;
      n++;
      this.d.effects.handle(outcome, 'offline alert events not published');
    }
    if (n) this.d.log.info({ event: 'alerts.offline', collars: n }, 'collars went offline');
    return n;
  }

  /**
   * The owner resolves an alert of their collar (the route has checked that the caller owns
   * it: an admin may read another owner's alerts but not resolve them); answers it as it is
   * now (already resolved: as it was), or undefined when the device has no such alert.
   */
  async resolveByOwner(deviceUuid: string, alertId: string): Promise<Alert | undefined> {
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
   * The owner acknowledges an open heat alert (decision 0037; the route has checked that the
   * caller owns the collar): it stays open, so a reading that is still hot opens nothing new and
   * mails nothing, and PawGuard keeps watching — an escalation notifies as always and asks again.
   * Its notifications are marked read. Answers the alert as it is now (already acknowledged: as
   * it was), undefined when the device has no such alert; a resolved alert or another type is a
   * ConflictError / BadRequestError.
   */
  async acknowledgeByOwner(deviceUuid: string, alertId: string): Promise<Alert | undefined> {
    const outcome = await this.d.db.transaction().execute(async (trx) => {
      // The device row's lock, as ingest takes it: an escalation in flight either comes first
      // (and this acknowledges the raised alert) or after (and clears this acknowledgement).
      await this.d.devices.lockRow(deviceUuid, trx, this.d.lockRows);
      const row = await this.d.alerts.findForDevice(deviceUuid, alertId, trx);
      if (!row) return undefined;
      if (row.type !== 'heat') throw new BadRequestError('Only a heat alert can be acknowledged');
      if (row.resolved_at !== null) throw new ConflictError('This alert is already resolved');
      const at = this.d.clock.now().toISOString();
      const acknowledgedNow = await this.d.alerts.acknowledge(alertId, at, trx);
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

  startSweeping(): void {
    this.listeningSince = this.d.clock.now();
    const run = () => {
      if (this.sweeping) return;
      this.sweeping = this.sweepOffline()
        .catch((err: unknown) => {
          // Likely the database is out: silence is counted afresh from when it is back.
          this.listeningSince = this.d.clock.now();
          this.d.log.error({ err }, 'offline sweep failed');
        })
        .finally(() => (this.sweeping = undefined));
    };
    this.sweepTimer = setInterval(run, OFFLINE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  async stopSweeping(): Promise<void> {
    clearInterval(this.sweepTimer);
    await this.sweeping;
  }
}

/** The owner hears of a collar taken off between these hours (local), not at night. */
const DAY_HOURS = [7, 22] as const;

/** Whether a moment is in the day (07:00–22:00) in a time zone (UTC when unknown). */
function isDaytime(atMs: number, timeZone: string | null): boolean {
  const { hour } = wallClock(atMs, timeZone ?? 'UTC');
  return hour >= DAY_HOURS[0] && hour < DAY_HOURS[1];
}

/** The collar's time of a reading, ISO-8601 UTC. */
const readingTime = (row: ReadingRow) => new Date(Number(row.recorded_at)).toISOString();

/** A reading's heat level: the dog's one level, as its answers carry it. */
function heatLevel({ row, status }: StoredReading): VitalsStatus {
  return dogLevel(status, asVitalsStatus(row.risk_band)) ?? status;
}

/**
 * Why a heat alert opened or rose, in plain words (at most three): the owner's threshold when
 * the reading reached it, and the heat-risk model's reasons, whichever set the level first.
 * Worded for whoever reads them, the owner or an admin ("the critical threshold", not "your").
 * From a collar judged off its dog, the threshold's reason follows a word that it may be off.
 */
function reasonsFor(
  s: StoredReading,
  thresholds: IngestDevice['thresholds'],
  unit: TemperatureUnit,
  collarOff = false,
): string[] {
  const out: string[] = [];
  if (collarOff)
    out.push(
      'the collar may be off its dog (no heart rate or movement), but if it is on, this heat is dangerous',
    );
  const tempF = celsiusToFahrenheit(s.row.temperature);
  const degrees = (f: number) =>
    unit === 'C' ? formatCelsius(fahrenheitToCelsius(f)) : formatFahrenheit(f);
  if (s.status === 'CRITICAL' || s.status === 'WARNING') {
    const limit = s.status === 'CRITICAL' ? thresholds.criticalF : thresholds.warningF;
    const which = s.status === 'CRITICAL' ? 'critical' : 'warning';
    out.push(thresholdReason(`collar temperature ${degrees(tempF)}`, which, limit, unit));
  } else if (s.status === 'DANGER') {
    const hi = heatIndexQuotable(tempF, s.row.humidity)
      ? `heat index ${degrees(heatIndexF(tempF, s.row.humidity))}`
      : EXTREME_HEAT;
    out.push(thresholdReason(hi, 'critical', thresholds.criticalF, unit));
  }
  const risk = asVitalsStatus(s.row.risk_band) ?? 'SAFE';
  if (risk === 'SAFE' || collarOff) return out;
  const model = parseReasons(s.row.risk_reasons);
  // Whichever set the level leads: the model's when it raised it above the thresholds.
  return (levelSetBy(s.status, risk) === 'model' ? [...model, ...out] : [...out, ...model]).slice(
    0,
    3,
  );
}

/**
 * A reading older than this when it arrives came late (a backlog uploaded once the collar was
 * back in range): its notification says when it was taken, since "1m ago" is only when it came.
 */
const LATE_READING_MS = 5 * 60_000;

/** A notification's title and message: who, what, how hot, what to do. */
function describe(
  n: PendingNotice,
  alert: Alert,
  s: Subject,
  now: Date,
): { title: string; message: string } {
  const who = s.dogName ?? s.deviceName ?? s.deviceId;
  const collar = `${s.deviceName} (${s.deviceId})`;
  if (alert.type === 'heat') {
    const level = LEVEL_WORD[n.alert.level as AlertLevel];
    const r = n.reading!;
    const late = now.getTime() - Number(r.recorded_at) > LATE_READING_MS;
    const temp = formatTemperature(r.temperature, s.owner.temperatureUnit);
    const title =
      n.kind === 'escalated'
        ? `${who}: heat alert raised to ${level}`
        : `${who}: ${level} heat alert`;
    const advice =
      n.alert.level === 'WARNING'
        ? 'Move them to shade and offer water.'
        : 'Cool them now with cool (not ice-cold) water and call your vet.';
    const why = alert.reasons.length ? ` Why: ${alert.reasons.join('; ')}.` : '';
    return {
      title,
      message: late
        ? `${collar} read ${temp} at ${r.humidity}% humidity (taken ${formatZonedTime(readingTime(r), s.owner.timeZone)}, received late).${why} ${advice}`
        : `${collar} reads ${temp} at ${r.humidity}% humidity.${why} ${advice}`,
    };
  }
  if (alert.type === 'collar_off')
    return {
      title: `${who}'s collar seems to be off`,
      message: `${collar} has sent no heart rate and no movement for a few minutes. If it is charging or put away, all is well: heat alerts wait until it is back on ${who}.`,
    };
  if (alert.type === 'over_budget')
    return {
      title: `${who}: readings refused`,
      message: `${collar}: ${alert.reasons[0] ?? OVER_BUDGET_REASON.rate} PawGuard refuses its new readings for now, so heat alerts may miss them.`,
    };
  if (alert.type === 'offline')
    return {
      title: `${who}: collar offline`,
      message: `${collar} has sent nothing for 10 minutes. Check that it is charged and in range.`,
    };
  return {
    title: `${who}: collar battery low`,
    message: `${collar} is at ${alert.battery_level ?? '?'}% battery. Charge it soon so alerts keep reaching you.`,
  };
}

/** Why an over-budget collar's readings are refused, in the owner's words. */
const OVER_BUDGET_REASON = {
  rate: 'It sent far more readings than a collar needs. Check its firmware, or contact support if this goes on.',
  quota:
    'Your account keeps as many readings as its storage quota allows. Older readings expire with retention; contact support to raise the quota.',
} as const;

/** A new open alert: what it is, whose, and since when; everything else empty until it moves. */
function newAlert(
  fields: Pick<AlertRow, 'device_id' | 'user_id' | 'type' | 'opened_at' | 'reading_at'> &
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
    ...fields,
  };
}
