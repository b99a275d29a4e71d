import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  INITIAL_DEVICE_STATUS,
  MESSAGES,
  isCustomerDeviceType,
  nextRegistrationStatus,
  type AssignDeviceInput,
  type AutoAssignInput,
  type CreateDeviceInput,
  type Device,
  type DeviceLookup,
  type User,
} from '@pawguard/shared';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/index.js';
import {
  toDevice,
  type NewDeviceRow,
  type DevicesRepository,
} from '../../repositories/devices-repository.js';
import type { DogsRepository } from '../../repositories/dogs-repository.js';
import type { OutboxRepository } from '../../repositories/outbox-repository.js';
import type { Clock } from '../clock.js';
import type { FixedWindowLimit } from '../fixed-window-limit.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import { collarSetupMail } from '../device-mail.js';
import type { DeviceNews } from './device-news.js';
import type { MailKick } from '../commit-effects.js';
import {
  DEVICE_NOT_FOUND,
  NO_VITALS,
  DOG_NOT_FOUND,
  checkType,
  heldBy,
  isAdmin,
  notACollar,
  onLiveDog,
  type DeviceAccess,
} from './device-access.js';

export interface CustomerRegistrationDeps {
  db: Kysely<Database>;
  devices: DevicesRepository;
  dogs: DogsRepository;
  outbox: OutboxRepository;
  clock: Clock;
  access: DeviceAccess;
  /** Told after a claim, so the owner's screens (and ingestion) learn of it. */
  news: DeviceNews;
  /** by-device-id, assign and the fallback share one budget per user: each reveals whether an id exists. */
  lookupLimit: FixedWindowLimit;
  /** Auto-assign reservations per user (5 an hour by default): the fleet is shared. */
  autoAssignLimit: FixedWindowLimit;
  mailWorker: MailKick;
}

/** Collars auto-assign lets one person hold before any of them has sent data. */
export const MAX_WAITING_AUTO_ASSIGNED = 3;

/** Why auto-assign reserves no more for this person, with the count in words. */
const collarsWaiting = (n: number) =>
  n === 1
    ? 'You already have a collar from PawGuard waiting for its first reading. Set it up first, or register a collar by its Device ID.'
    : `You already have ${n} collars from PawGuard waiting for their first reading. Set them up first, or register a collar by its Device ID.`;

const notFound = (deviceId: string) => new NotFoundError(`Device ${deviceId} was not found`);

/**
 * A customer attaching a collar (DESIGN §3): look a Device ID up, claim it for a pet, record
 * an unknown one (the fallback), or have a free collar reserved and mailed (auto-assign).
 */
export class CustomerRegistration {
  constructor(private readonly d: CustomerRegistrationDeps) {}

  private now() {
    return this.d.clock.now().toISOString();
  }

  private spendLookup(actor: User) {
    this.d.lookupLimit.take(actor.id, this.d.clock.now().getTime());
  }

  /** GET by-device-id: only whether it can be claimed. */
  async lookup(actor: User, deviceId: string): Promise<DeviceLookup> {
    this.spendLookup(actor);
    const row = await this.d.devices.findByDeviceId(deviceId);
    if (!row) throw notFound(deviceId);
    if (nextRegistrationStatus(row.registration_status, 'claim') === null)
      return { status: 'assigned', message: heldBy(row, actor).message };
    if (!isAdmin(actor) && !isCustomerDeviceType(row.device_type))
      throw new BadRequestError(notACollar(row));
    return { status: 'unassigned', message: `Device ${deviceId} is available to register.` };
  }

  /** POST assign/{deviceId}: claims an unassigned collar for one of the caller's pets. */
  async assign(actor: User, deviceId: string, input: AssignDeviceInput): Promise<Device> {
    // Its answers (409 / 404) tell whether a Device ID exists, just as the look-up does, so it
    // spends the same per-user budget against enumeration.
    this.spendLookup(actor);
    const type = input.device_type ?? 'collar';
    checkType(actor, type);
    await this.d.access.ownDog(input.dog_id, actor.id);
    const admin = isAdmin(actor);
    const won = await onLiveDog(() =>
      this.d.devices.claim(
        { deviceId },
        'claim',
        {
          user_id: actor.id,
          dog_id: input.dog_id,
          device_name: input.device_name,
          // A customer's claim never rewrites what the admin provisioned (customers use collars).
          ...(admin ? { device_type: type } : {}),
          registration_status: nextRegistrationStatus('unassigned', 'claim')!,
          ...NO_VITALS,
          updated_at: this.now(),
        },
        admin ? {} : { onlyType: 'collar' },
      ),
    );
    const row = await this.d.devices.findByDeviceId(deviceId);
    if (!row) throw notFound(deviceId);
    if (won) {
      this.d.news.deviceUpdated(row.id, actor.id);
      return toDevice(row);
    }
    if (nextRegistrationStatus(row.registration_status, 'claim') !== null && !admin)
      throw new BadRequestError(notACollar(row));
    throw heldBy(row, actor);
  }

  /** POST /api/devices: the fallback for an unknown Device ID; unregistered, no key. */
  async createUnregistered(actor: User, input: CreateDeviceInput): Promise<Device> {
    this.spendLookup(actor);
    const type = input.device_type ?? 'collar';
    checkType(actor, type);
    await this.d.access.ownDog(input.dog_id, actor.id);
    const mac = input.device_address ? input.device_address : null;
    const existing = await this.d.devices.findByDeviceId(input.device_id);
    if (existing) {
      if (nextRegistrationStatus(existing.registration_status, 'claim') !== null) {
        throw new ConflictError(
          `Device ${input.device_id} already exists. Register it by its Device ID instead.`,
        );
      }
      throw heldBy(existing, actor);
    }
    if (mac && (await this.d.devices.findByMac(mac)))
      throw new ConflictError(`MAC address ${mac} is already registered to another device.`);
    const now = this.now();
    const row: NewDeviceRow = {
      id: randomUUID(),
      device_id: input.device_id,
      device_address: mac,
      device_name: input.device_name,
      device_type: type,
      status: INITIAL_DEVICE_STATUS,
      registration_status: 'unregistered',
      user_id: actor.id,
      dog_id: input.dog_id,
      firmware_version: input.firmware_version ? input.firmware_version : null,
      battery_level: null,
      last_seen: null,
      created_at: now,
      updated_at: now,
      device_key_hash: null,
      ...NO_VITALS,
    };
    try {
      await onLiveDog(() => this.d.devices.insert(row));
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(MESSAGES.deviceAlreadyAssigned(input.device_id));
      throw err;
    }
    const stored = await this.d.devices.findById(row.id);
    if (!stored) throw new NotFoundError(DEVICE_NOT_FOUND);
    return toDevice(stored);
  }

  /**
   * POST auto-assign: reserves the oldest free collar for the pet, assigns it at once and
   * mails the Device ID with the set-up steps, in one transaction. The fleet is shared, so a
   * user may reserve only a few an hour, and a pet that already has a collar waiting for its
   * first reading gets no second one this way (claiming by the printed Device ID still works).
   */
  async autoAssign(actor: User, input: AutoAssignInput): Promise<Device> {
    const takenAt = this.d.clock.now().getTime();
    this.d.autoAssignLimit.take(actor.id, takenAt);
    let device: Device;
    try {
      device = await this.reserve(actor, input);
    } catch (err) {
      // The budget counts reservations: a refused request reserved nothing.
      this.d.autoAssignLimit.giveBack(actor.id, takenAt);
      throw err;
    }
    this.d.mailWorker.kick();
    this.d.news.deviceUpdated(device.id, actor.id);
    return device;
  }

  private async reserve(actor: User, input: AutoAssignInput): Promise<Device> {
    await this.d.access.ownDog(input.dog_id, actor.id);
    const now = this.now();
    return this.d.db.transaction().execute(async (trx) => {
      // Locked: two requests of one person take turns, so neither cap below can be beaten by
      // asking twice at once.
      const dogs = await this.d.dogs.lockAllOwned(actor.id, trx);
      const dog = await this.d.dogs.lockOwned(input.dog_id, actor.id, trx);
      if (!dog) throw new NotFoundError(DOG_NOT_FOUND);
      const waiting = await this.d.devices.findWaitingOnDog(dog.id, trx);
      if (waiting) {
        throw new ConflictError(
          `${dog.name} already has a collar waiting for its first reading (${waiting.device_id}). Set that one up first, or register a collar by its Device ID.`,
        );
      }
      // Per person, wherever those collars are now: taking a waiting collar off its dog (or
      // deleting the dog) frees no room (decision 0007).
      const waitingCount = await this.d.devices.countAutoAssignedWaiting(actor.id, trx);
      if (waitingCount >= Math.min(dogs.length, MAX_WAITING_AUTO_ASSIGNED)) {
        throw new ConflictError(collarsWaiting(waitingCount));
      }
      // Another request may take a candidate first; the conditional claim tells us, and we
      // move on. Each lost claim means that collar is gone, so the free list shrinks every
      // round: we stop only with a collar, or when none is free.
      for (;;) {
        const candidates = await this.d.devices.freeCollarIds(5, trx);
        if (candidates.length === 0) throw new ConflictError(MESSAGES.noCollarsAvailable);
        for (const { id } of candidates) {
          const won = await this.d.devices.claim(
            { id },
            'claim',
            {
              user_id: actor.id,
              dog_id: dog.id,
              device_name: input.device_name,
              registration_status: nextRegistrationStatus('unassigned', 'claim')!,
              ...NO_VITALS,
              auto_assigned: 1,
              updated_at: now,
            },
            { ex: trx },
          );
          if (!won) continue;
          const claimed = await this.d.devices.findById(id, trx);
          if (!claimed) throw new NotFoundError(DEVICE_NOT_FOUND);
          await this.d.outbox.enqueue(
            collarSetupMail({
              assignmentKey: `${id}-${now}`,
              to: actor.email,
              ownerName: actor.name,
              dogName: dog.name,
              deviceId: claimed.device_id,
              deviceName: claimed.device_name,
            }),
            now,
            trx,
          );
          return toDevice(claimed);
        }
      }
    });
  }
}
