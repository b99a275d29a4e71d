import type { Kysely, SelectQueryBuilder, Transaction, Updateable } from 'kysely';
import type { Database, DevicesTable } from '../db/schema.js';
import { readPage, type PageRequest } from './paging.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type DeviceRow = DevicesTable;
/** A device with the names the screens show beside it. */
export type DeviceWithNames = DeviceRow & { dog_name: string | null; owner_name: string | null };
export type DeviceChanges = Updateable<DevicesTable>;

export class DevicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withNames(ex: Executor) {
    return this.names(ex.selectFrom('devices'));
  }

  private names(q: SelectQueryBuilder<Database, 'devices', object>) {
    return q
      .leftJoin('dogs', 'dogs.id', 'devices.dog_id')
      .leftJoin('users', 'users.id', 'devices.user_id')
      .selectAll('devices')
      .select(['dogs.name as dog_name', 'users.name as owner_name']);
  }

  /** An owner's devices, oldest first. */
  pageByUser(userId: string, page: PageRequest) {
    return readPage(
      this.db.selectFrom('devices').where('devices.user_id', '=', userId),
      (q) => this.names(q).orderBy('devices.created_at', 'asc').orderBy('devices.id', 'asc'),
      page,
    );
  }

  /** Every device, newest first (the admin's fleet list). */
  pageAll(page: PageRequest) {
    return readPage(
      this.db.selectFrom('devices'),
      (q) => this.names(q).orderBy('devices.created_at', 'desc').orderBy('devices.id', 'desc'),
      page,
    );
  }

  /** Devices nobody holds, newest first. */
  pageUnassigned(page: PageRequest) {
    return readPage(
      this.db.selectFrom('devices').where('devices.registration_status', '=', 'unassigned'),
      (q) => this.names(q).orderBy('devices.created_at', 'desc').orderBy('devices.id', 'desc'),
      page,
    );
  }

  findById(id: string, ex: Executor = this.db): Promise<DeviceWithNames | undefined> {
    return this.withNames(ex).where('devices.id', '=', id).executeTakeFirst();
  }

  findByDeviceId(deviceId: string, ex: Executor = this.db): Promise<DeviceWithNames | undefined> {
    return this.withNames(ex).where('devices.device_id', '=', deviceId).executeTakeFirst();
  }

  findByMac(mac: string, ex: Executor = this.db): Promise<DeviceWithNames | undefined> {
    return this.withNames(ex).where('devices.device_address', '=', mac).executeTakeFirst();
  }

  findByKeyHash(hash: string) {
    return this.db
      .selectFrom('devices')
      .select(['id', 'device_id'])
      .where('device_key_hash', '=', hash)
      .executeTakeFirst();
  }

  /** Devices an owner holds, without the names (for releasing them). */
  listOwnedRows(userId: string, ex: Executor = this.db) {
    return ex.selectFrom('devices').selectAll().where('user_id', '=', userId).execute();
  }

  async deviceIdExists(deviceId: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('devices')
      .select('id')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The oldest pre-populated collars nobody holds yet (none an admin put in maintenance). */
  freeCollarIds(limit: number, ex: Executor = this.db) {
    return ex
      .selectFrom('devices')
      .select('id')
      .where('registration_status', '=', 'unassigned')
      .where('device_type', '=', 'collar')
      .where('status', '!=', 'maintenance')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }

  /** A collar on this pet that has an owner but has never sent data, if there is one. */
  findWaitingOnPet(dogId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('devices')
      .select(['id', 'device_id'])
      .where('dog_id', '=', dogId)
      .where('registration_status', '=', 'assigned')
      .executeTakeFirst();
  }

  async insert(row: DeviceRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('devices').values(row).execute();
  }

  /**
   * Changes a device; with `ownerId`, only while that user still holds it. Returns whether a
   * row changed.
   */
  async update(
    id: string,
    changes: DeviceChanges,
    ownerId?: string,
    ex: Executor = this.db,
  ): Promise<boolean> {
    let q = ex.updateTable('devices').set(changes).where('id', '=', id);
    if (ownerId !== undefined) q = q.where('user_id', '=', ownerId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Takes a device only while it is unassigned. The condition is checked by the UPDATE
   * itself, so of two concurrent claims exactly one changes the row.
   */
  async claimUnassigned(
    key: { id: string } | { deviceId: string },
    changes: DeviceChanges,
    ex: Executor = this.db,
    onlyType?: DeviceRow['device_type'],
  ): Promise<boolean> {
    let q = ex.updateTable('devices').set(changes).where('registration_status', '=', 'unassigned');
    if (onlyType) q = q.where('device_type', '=', onlyType);
    const r = await (
      'id' in key ? q.where('id', '=', key.id) : q.where('device_id', '=', key.deviceId)
    ).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A deleted pet's collars stay with the owner, on no pet. */
  async clearPet(dogId: string, now: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable('devices')
      .set({ dog_id: null, updated_at: now })
      .where('dog_id', '=', dogId)
      .execute();
  }

  async delete(id: string, ownerId?: string, ex: Executor = this.db): Promise<boolean> {
    let q = ex.deleteFrom('devices').where('id', '=', id);
    if (ownerId !== undefined) q = q.where('user_id', '=', ownerId);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
