import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Notification } from '@pawguard/shared';
import type { Database, NotificationsTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type NotificationRow = Selectable<NotificationsTable>;

export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withAlert(ex: Executor = this.db) {
    return ex
      .selectFrom('notifications')
      .innerJoin('alerts', 'alerts.id', 'notifications.alert_id')
      .innerJoin('devices', 'devices.id', 'alerts.device_uuid')
      .leftJoin('dogs', 'dogs.id', 'devices.dog_id')
      .leftJoin('users as acker', 'acker.id', 'alerts.acknowledged_by')
      .select([
        'alerts.acknowledged_at',
        'acker.name as acknowledged_by_name',
        'notifications.id',
        'notifications.kind',
        'notifications.alert_id',
        'notifications.level',
        'notifications.title',
        'notifications.message',
        'notifications.read_at',
        'notifications.created_at',
        'alerts.type as alert_type',
        'alerts.device_uuid as device',
        'devices.device_id',
        'dogs.name as dog_name',
      ]);
  }

  async insert(row: NotificationRow, ex: Executor): Promise<void> {
    await ex.insertInto('notifications').values(row).execute();
  }

  async find(
    userId: string,
    id: string,
    ex: Executor = this.db,
  ): Promise<Notification | undefined> {
    const row = await this.withAlert(ex)
      .where('notifications.user_id', '=', userId)
      .where('notifications.id', '=', id)
      .executeTakeFirst();
    return row && toNotification(row);
  }

  /** Some notifications, oldest first (a digest's), in `ex`. */
  async byIds(ids: string[], ex: Executor): Promise<Notification[]> {
    if (ids.length === 0) return [];
    const rows = await this.withAlert(ex)
      .where('notifications.id', 'in', ids)
      .orderBy('notifications.created_at')
      .orderBy('notifications.id')
      .execute();
    return rows.map(toNotification);
  }

  /** A person's notifications, newest first. */
  async list(userId: string, limit: number): Promise<Notification[]> {
    const rows = await this.withAlert()
      .where('notifications.user_id', '=', userId)
      .orderBy('notifications.created_at', 'desc')
      .orderBy('notifications.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toNotification);
  }

  async unreadCount(userId: string): Promise<number> {
    const r = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Marks one read (already read: kept as it was); answers it, or undefined when not theirs. */
  async markRead(userId: string, id: string, at: string): Promise<Notification | undefined> {
    await this.db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .execute();
    return this.find(userId, id);
  }

  /** Marks the notifications about one alert read (its owner acknowledged it), in `ex`. */
  async markReadForAlert(alertId: string, at: string, ex: Executor): Promise<void> {
    await ex
      .updateTable('notifications')
      .set({ read_at: at })
      .where('alert_id', '=', alertId)
      .where('read_at', 'is', null)
      .execute();
  }

  async markAllRead(userId: string, at: string): Promise<void> {
    await this.db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .execute();
  }
}

type Joined = Omit<NotificationRow, 'user_id'> & {
  alert_type: Notification['alert_type'];
  device: string;
  device_id: string;
  dog_name: string | null;
  acknowledged_at: string | null;
  acknowledged_by_name: string | null;
};

function toNotification(row: Joined): Notification {
  return {
    id: row.id,
    kind: row.kind,
    alert_id: row.alert_id,
    alert_type: row.alert_type,
    level: row.level,
    device: row.device,
    device_id: row.device_id,
    dog_name: row.dog_name,
    title: row.title,
    message: row.message,
    read: row.read_at !== null,
    created_at: row.created_at,
    acknowledged_at: row.acknowledged_at,
    acknowledged_by_name: row.acknowledged_at ? row.acknowledged_by_name : null,
  };
}
