import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { DEFAULT_PREFERENCES, parseReasons, reasonsNow, type Alert } from '@pawguard/shared';
import type { AlertsTable, Database } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type AlertRow = Selectable<AlertsTable>;
export type AlertChanges = Updateable<AlertsTable>;

/** An alert row with what its answer names: the collar and the dog it is on now. */
type AlertWithNames = AlertRow & {
  printed_device_id: string;
  device_name: string | null;
  dog_id: string | null;
  dog_name: string | null;
  /** The owner's thresholds now (null: the defaults apply). */
  warning_now: number | null;
  critical_now: number | null;
  /** Who acknowledged it, by name (null: nobody, or an account since deleted). */
  acknowledged_by_name: string | null;
};

export function toAlert(row: AlertWithNames): Alert {
  return {
    id: row.id,
    device: row.device_uuid,
    device_id: row.printed_device_id,
    device_name: row.device_name,
    dog_id: row.dog_id,
    dog_name: row.dog_name,
    type: row.type,
    level: row.level,
    resolved: row.resolved_at !== null,
    opened_at: row.opened_at,
    reading_at: row.reading_at,
    escalated_at: row.escalated_at,
    resolved_at: row.resolved_at,
    resolved_by: row.resolved_by,
    resolved_reading_at: row.resolved_reading_at,
    peak_temperature_celsius: row.peak_temperature_celsius,
    peak_heat_index_f: row.peak_heat_index_f,
    battery_level: row.battery_level,
    // Stored as of the opening or last escalation; a threshold the owner has changed since
    // is named as the one that applied then, beside today's.
    reasons: reasonsNow(parseReasons(row.reasons), {
      warningF: row.warning_now ?? DEFAULT_PREFERENCES.temperature_threshold,
      criticalF: row.critical_now ?? DEFAULT_PREFERENCES.critical_temperature_threshold,
    }),
    acknowledged_at: row.acknowledged_at,
    acknowledged_by_name: row.acknowledged_at ? row.acknowledged_by_name : null,
  };
}

/** An open DANGER or CRITICAL heat alert nobody has acknowledged, and its pet's minutes. */
export interface UnacknowledgedAlert {
  id: string;
  device_uuid: string;
  user_id: string;
  level: 'DANGER' | 'CRITICAL';
  /** When it reached its level: its escalation, else its opening. */
  since: string;
  danger_minutes: number | null;
  critical_minutes: number | null;
}

export class AlertsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withNames(ex: Executor = this.db) {
    return ex
      .selectFrom('alerts')
      .innerJoin('devices', 'devices.id', 'alerts.device_uuid')
      .leftJoin('dogs', 'dogs.id', 'devices.dog_id')
      .leftJoin('notification_preferences as prefs', 'prefs.user_id', 'alerts.user_id')
      .leftJoin('users as acker', 'acker.id', 'alerts.acknowledged_by')
      .selectAll('alerts')
      .select([
        'acker.name as acknowledged_by_name',
        'devices.device_id as printed_device_id',
        'devices.device_name',
        'devices.dog_id',
        'dogs.name as dog_name',
        'prefs.temperature_threshold as warning_now',
        'prefs.critical_temperature_threshold as critical_now',
      ]);
  }

  /** The open alerts of one device, at most one of each type. */
  openFor(deviceId: string, ex: Executor): Promise<AlertRow[]> {
    return ex
      .selectFrom('alerts')
      .selectAll()
      .where('device_uuid', '=', deviceId)
      .where('resolved_at', 'is', null)
      .execute();
  }

  /** Whether the device has an alert of `type` open, or opened since `since` (ISO). */
  async anySince(
    deviceId: string,
    type: AlertRow['type'],
    since: string,
    ex: Executor,
  ): Promise<boolean> {
    const row = await ex
      .selectFrom('alerts')
      .select('id')
      .where('device_uuid', '=', deviceId)
      .where('type', '=', type)
      .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('opened_at', '>=', since)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: AlertRow, ex: Executor): Promise<void> {
    await ex.insertInto('alerts').values(row).execute();
  }

  async update(id: string, changes: AlertChanges, ex: Executor): Promise<void> {
    await ex.updateTable('alerts').set(changes).where('id', '=', id).execute();
  }

  /** The answer shape of some alerts (after they were written in `ex`). */
  async answers(ids: string[], ex: Executor): Promise<Alert[]> {
    if (ids.length === 0) return [];
    const rows = await this.withNames(ex).where('alerts.id', 'in', ids).execute();
    return rows.map(toAlert);
  }

  /**
   * A device's alerts (or, with `userId` and no device, a person's; with neither, every
   * alert), newest first, optionally only open or only resolved ones.
   */
  async list(opts: {
    deviceId?: string;
    userId?: string;
    /** With userId: the time a pack membership's `until` is checked against. */
    now?: string;
    resolved?: boolean | undefined;
    limit: number;
    offset: number;
  }): Promise<{ alerts: Alert[]; total: number }> {
    let q = this.withNames();
    if (opts.deviceId) q = q.where('alerts.device_uuid', '=', opts.deviceId);
    // A person's alerts are those of the devices they hold now, and of the collars on pets
    // shared with them now (docs/pack.md).
    const { userId, now } = opts;
    if (userId)
      q = q.where((eb) =>
        eb.or([
          eb('devices.user_id', '=', userId),
          // `IN`, not EXISTS: both branches read by an index.
          eb(
            'devices.dog_id',
            'in',
            eb
              .selectFrom('pack_members as m')
              .select('m.dog_id')
              .where('m.user_id', '=', userId)
              .where((w) => w.or([w('m.until', 'is', null), w('m.until', '>', now ?? '')])),
          ),
        ]),
      );
    if (opts.resolved !== undefined)
      q = q.where('alerts.resolved_at', opts.resolved ? 'is not' : 'is', null);
    const [rows, count] = await Promise.all([
      q
        .orderBy('alerts.opened_at', 'desc')
        // Alerts a backlog opened in one request share their opened_at: newest reading first.
        .orderBy((eb) => eb.fn.coalesce('alerts.reading_at', 'alerts.opened_at'), 'desc')
        .orderBy('alerts.id', 'desc')
        .limit(opts.limit)
        .offset(opts.offset)
        .execute(),
      q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { alerts: rows.map(toAlert), total: Number(count.n) };
  }

  /** One alert's row by its id alone (an acknowledge link names only the alert). */
  findById(alertId: string, ex: Executor = this.db): Promise<AlertRow | undefined> {
    return ex.selectFrom('alerts').selectAll().where('id', '=', alertId).executeTakeFirst();
  }

  /** One alert of one device. */
  async findForDevice(deviceId: string, alertId: string, ex: Executor = this.db) {
    const row = await this.withNames(ex)
      .where('alerts.device_uuid', '=', deviceId)
      .where('alerts.id', '=', alertId)
      .executeTakeFirst();
    return row;
  }

  /**
   * Resolves an alert if it is still open; answers whether this call did. `readingAt`: the time
   * of the reading that ended the condition (resolved by the condition only).
   */
  async resolve(
    id: string,
    at: string,
    by: 'condition' | 'owner',
    ex: Executor = this.db,
    readingAt: string | null = null,
  ): Promise<boolean> {
    const r = await ex
      .updateTable('alerts')
      .set({ resolved_at: at, resolved_by: by, resolved_reading_at: readingAt })
      .where('id', '=', id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Open DANGER and CRITICAL heat alerts nobody has acknowledged and whose level has had no
   * reminder yet, with their pet's escalation minutes, a page at a time (they are few).
   */
  unacknowledged(limit: number, offset = 0): Promise<UnacknowledgedAlert[]> {
    return this.db
      .selectFrom('alerts')
      .innerJoin('devices', 'devices.id', 'alerts.device_uuid')
      .leftJoin('pet_escalation', 'pet_escalation.dog_id', 'devices.dog_id')
      .select((eb) => [
        'alerts.id',
        'alerts.device_uuid',
        'alerts.user_id',
        eb.cast<'DANGER' | 'CRITICAL'>('alerts.level', 'text').as('level'),
        eb.fn.coalesce('alerts.escalated_at', 'alerts.opened_at').as('since'),
        'pet_escalation.danger_minutes',
        'pet_escalation.critical_minutes',
      ])
      .where('alerts.type', '=', 'heat')
      .where('alerts.resolved_at', 'is', null)
      .where('alerts.acknowledged_at', 'is', null)
      .where('alerts.level', 'in', ['DANGER', 'CRITICAL'])
      .where((eb) =>
        eb.or([
          eb('alerts.reminded_level', 'is', null),
          eb('alerts.reminded_level', '!=', eb.ref('alerts.level') as never),
        ]),
      )
      .orderBy('alerts.opened_at')
      .orderBy('alerts.id')
      .limit(limit)
      .offset(offset)
      .execute() as Promise<UnacknowledgedAlert[]>;
  }

  /**
   * Records that the reminder of `level` went out, only while the alert is still open,
   * unacknowledged and at that level with no reminder of it: of several instances sweeping at
   * once, one sends it. Answers whether this call did.
   */
  async markReminded(id: string, level: 'DANGER' | 'CRITICAL', at: string, ex: Executor) {
    const r = await ex
      .updateTable('alerts')
      .set({ reminded_level: level, reminded_at: at })
      .where('id', '=', id)
      .where('resolved_at', 'is', null)
      .where('acknowledged_at', 'is', null)
      .where('level', '=', level)
      .where((eb) => eb.or([eb('reminded_level', 'is', null), eb('reminded_level', '!=', level)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Acknowledges an open alert not yet acknowledged, by `by`; answers whether this call did. */
  async acknowledge(id: string, at: string, by: string, ex: Executor): Promise<boolean> {
    const r = await ex
      .updateTable('alerts')
      .set({ acknowledged_at: at, acknowledged_by: by })
      .where('id', '=', id)
      .where('resolved_at', 'is', null)
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A released collar's alerts go with its readings (they were its previous owner's). */
  async deleteForDevice(deviceId: string, ex: Executor): Promise<void> {
    await ex.deleteFrom('alerts').where('device_uuid', '=', deviceId).execute();
  }
}
