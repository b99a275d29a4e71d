import type { Kysely } from 'kysely';
import {
  defaultDeviceName,
  nextRegistrationStatus,
  statusAfterRelease,
  type Device,
  type UpdateDeviceInput,
  type User,
} from '@pawguard/shared';
import type { Database } from '../../db/schema.js';
import {
  toDevice,
  type DeviceChanges,
  type DeviceRow,
  type DevicesRepository,
} from '../../repositories/devices-repository.js';
import type { ReadingsRepository } from '../../repositories/readings-repository.js';
import type { Clock } from '../clock.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.js';
import type { CredentialsChange, DeviceNews } from './device-news.js';
import {
  DEVICE_NOT_FOUND,
  NO_RISK,
  NO_VITALS,
  DOG_NOT_FOUND,
  checkType,
  isAdmin,
  onLiveDog,
  type DeviceAccess,
} from './device-access.js';

/** What the owner or an admin did with DELETE. */
export type RemoveOutcome = 'released' | 'removed';

/**
 * A device after it has found its owner: edits, release, removal, and what happens when its
 * pet or its owner's account is deleted. Every change to who may post is announced through
 * `news` once committed (DeviceNews).
 */
export class DeviceLifecycleService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly access: DeviceAccess,
    private readonly news: DeviceNews,
    private readonly clock: Clock,
    private readonly db: Kysely<Database>,
    private readonly readings: ReadingsRepository,
  ) {}

  private now() {
    return this.clock.now().toISOString();
  }

  /**
   * PUT /api/devices/{id}. The owner renames the collar and moves it between their pets
   * (`dog_id: null` takes it off its pet; an omitted dog_id, name or type keeps the stored one:
   * the spec's body is the name and type alone, decision 0008).
   * A customer may not change the type to anything but a collar, nor set `status` (403).
   * An admin may set `status` on any device, but a customer's other fields are changed only
   * by that customer (DESIGN §5): an admin's PUT on a device someone else holds changes the
   * status and nothing else, and answers 403 if it asks for more.
   */
  async update(actor: User, id: string, input: UpdateDeviceInput): Promise<Device> {
    const { row, as } = await this.access.seen(actor, id);
    if (input.status !== undefined && !isAdmin(actor))
      throw new ForbiddenError('Only an admin can change a device status');
    // An admin in a pack keeps the admin's hand on the fleet (DESIGN §5).
    if (as === 'caregiver' && !isAdmin(actor))
      throw new ForbiddenError('A caregiver can see this collar but not change it');
    if (as === 'co_owner' && !isAdmin(actor)) return this.updateAsCoOwner(actor, row, input);
    if (row.user_id !== null && row.user_id !== actor.id) return this.setStatusOnly(row, input);
    const type = input.device_type ?? row.device_type;
    // Keeping a vest a vest is fine; only a change to a type customers cannot use is refused.
    if (type !== row.device_type) checkType(actor, type);
    const dogId = input.dog_id === undefined ? row.dog_id : input.dog_id;
    if (dogId !== null) {
      if (!row.user_id) throw new NotFoundError(DOG_NOT_FOUND);
      await this.access.ownDog(dogId, row.user_id);
    }
    const changes: DeviceChanges = {
      device_name: input.device_name ?? row.device_name,
      device_type: type,
      dog_id: dogId,
      updated_at: this.now(),
    };
    if (input.status !== undefined) changes.status = input.status;
    // On another dog the heat-risk model starts afresh: its resting heart rate, its days in the
    // heat and its held band were the other dog's.
    if (dogId !== row.dog_id) Object.assign(changes, NO_RISK);
    // The owner condition keeps a concurrent release from being undone.
    // An unowned device (an admin's edit) stays unowned, or the edit answers 409: a customer
    // who claimed it in between keeps their name, type and pet.
    const ownerId = row.user_id === actor.id ? actor.id : row.user_id === null ? null : undefined;
    const ok = await onLiveDog(() => this.devices.update(id, changes, { ownerId }));
    if (!ok && ownerId === null)
      throw new ConflictError('The device was just registered by a customer; reload it first.');
    if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
    this.news.deviceUpdated(id, row.user_id);
    return this.reload(id);
  }

  /**
   * A co-owner's PUT (docs/pack.md): the collar's name and type, on the pet they share; moving
   * it to another pet or off it is its owner's to do.
   */
  private async updateAsCoOwner(
    actor: User,
    row: DeviceRow,
    input: UpdateDeviceInput,
  ): Promise<Device> {
    if (input.dog_id !== undefined && input.dog_id !== row.dog_id)
      throw new ForbiddenError("Only the pet's owner can move its collars to another pet");
    const type = input.device_type ?? row.device_type;
    if (type !== row.device_type) checkType(actor, type);
    const ok = await this.devices.update(
      row.id,
      {
        device_name: input.device_name ?? row.device_name,
        device_type: type,
        updated_at: this.now(),
      },
      { ownerId: row.user_id ?? undefined },
    );
    if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
    this.news.deviceUpdated(row.id, row.user_id);
    return this.reload(row.id);
  }

  /** An admin's PUT on a customer's device: the status, and nothing of the customer's. */
  private async setStatusOnly(row: DeviceRow, input: UpdateDeviceInput): Promise<Device> {
    const rewrites =
      (input.device_name !== undefined && input.device_name !== row.device_name) ||
      (input.device_type !== undefined && input.device_type !== row.device_type) ||
      (input.dog_id !== undefined && input.dog_id !== row.dog_id);
    if (rewrites) {
      throw new ForbiddenError(
        "An admin can change only the status of a customer's device; its name, type and pet are the customer's.",
      );
    }
    if (input.status !== undefined && input.status !== row.status) {
      const ok = await this.devices.update(
        row.id,
        { status: input.status, updated_at: this.now() },
        { ownerId: row.user_id ?? undefined },
      );
      if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
      this.news.deviceUpdated(row.id, row.user_id);
    }
    return this.reload(row.id);
  }

  private async reload(id: string): Promise<Device> {
    const row = await this.devices.findById(id);
    if (!row) throw new NotFoundError(DEVICE_NOT_FOUND);
    return toDevice(row);
  }

  /**
   * The owner's DELETE releases the collar (owner, pet and name cleared, back to unassigned,
   * key kept, latest vitals, battery and last seen cleared); a customer's unregistered device has nothing to go back
   * to and is removed. An admin's DELETE of a device they do not hold removes it.
   */
  async remove(actor: User, id: string): Promise<RemoveOutcome> {
    const { row, as } = await this.access.seen(actor, id);
    if ((as === 'co_owner' || as === 'caregiver') && !isAdmin(actor))
      throw new ForbiddenError("Only the collar's owner can remove it");
    let outcome: RemoveOutcome;
    if (row.user_id === actor.id) {
      const given = await this.db.transaction().execute((trx) => this.giveBack(row, actor.id, trx));
      if (!given) throw new NotFoundError(DEVICE_NOT_FOUND);
      outcome = 'released';
    } else {
      if (!(await this.devices.delete(id))) throw new NotFoundError(DEVICE_NOT_FOUND);
      outcome = 'removed';
    }
    this.news.credentialsChanged({
      id,
      device_id: row.device_id,
      reason: outcome,
      owner_id: row.user_id,
    });
    return outcome;
  }

  /**
   * Back to the fleet (or gone, when it was never pre-populated), while `ownerId` holds it.
   * Its readings go with it: the next owner starts with none.
   */
  private async giveBack(row: DeviceRow, ownerId: string, ex: Kysely<Database>): Promise<boolean> {
    if (row.registration_status === 'unregistered')
      return this.devices.delete(row.id, { ownerId, ex });
    const released = await this.devices.update(
      row.id,
      {
        user_id: null,
        dog_id: null,
        device_name: defaultDeviceName(row.device_id),
        registration_status:
          nextRegistrationStatus(row.registration_status, 'release') ?? 'unassigned',
        status: statusAfterRelease(row.status),
        ...NO_VITALS,
        // What its readings said goes with them, as its latest vitals do.
        battery_level: null,
        last_seen: null,
        updated_at: this.now(),
      },
      { ownerId, ex },
    );
    if (released) await this.readings.deleteForDevice(row.id, ex);
    return released;
  }

  /** A deleted dog's collars stay with the owner, on no dog (in the dog's transaction). */
  async onDogDeleted(dogId: string, trx: Kysely<Database>): Promise<void> {
    await this.devices.clearDog(dogId, this.now(), trx);
  }

  /**
   * A deleted account's collars go back to the fleet; its unregistered devices go. Runs in
   * the account's transaction; returns what to announce once that has committed.
   */
  async onUserDeleted(userId: string, trx: Kysely<Database>): Promise<() => void> {
    const changes: CredentialsChange[] = [];
    for (const row of await this.devices.listOwnedRows(userId, trx)) {
      await this.giveBack(row, userId, trx);
      changes.push({
        id: row.id,
        device_id: row.device_id,
        reason: 'user_deleted',
        owner_id: userId,
      });
    }
    return () => this.news.credentialsChanged(changes);
  }
}
