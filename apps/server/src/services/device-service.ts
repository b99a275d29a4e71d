import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import QRCode from 'qrcode';
import {
  INITIAL_DEVICE_STATUS,
  MESSAGES,
  defaultDeviceName,
  generateDeviceId,
  isCustomerDeviceType,
  nextRegistrationStatus,
  statusAfterRelease,
  type AssignDeviceInput,
  type AutoAssignInput,
  type CreateDeviceInput,
  type Device,
  type DeviceLookup,
  type DeviceType,
  type PrePopulateInput,
  type PrePopulatedDevice,
  type RegisterDeviceInput,
  type SelfRegisterInput,
  type UpdateDeviceInput,
  type User,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/index.js';
import type {
  DeviceChanges,
  DeviceRow,
  DeviceWithNames,
  DevicesRepository,
} from '../repositories/devices-repository.js';
import type { DogsRepository } from '../repositories/dogs-repository.js';
import type { UsersRepository } from '../repositories/users-repository.js';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import type { PageRequest } from '../repositories/paging.js';
import type { Clock } from './clock.js';
import type { FixedWindowLimit } from './fixed-window-limit.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from './errors.js';
import { collarSetupMail } from './device-mail.js';
import type { CredentialsChange, DeviceLifecycle } from './devices/credentials-events.js';

const DEVICE_NOT_FOUND = 'Device not found';
const PET_NOT_FOUND = 'Pet not found';
const CUSTOMER_TYPE_ONLY = 'device_type must be collar: customers can only register collars';
const notACollar = (row: { device_id: string; device_type: DeviceType }) =>
  `Device ${row.device_id} is a ${row.device_type}; customers may register collars only.`;

/** 32 random bytes: 256 bits, well over the 128 the checklist asks of a device credential. */
const newDeviceKey = () => randomBytes(32).toString('base64url');
/** A fast hash is enough for a long random secret (nothing to brute-force). */
export const hashDeviceKey = (key: string) =>
  createHash('sha256').update(key, 'utf8').digest('hex');

/** The latest-vitals fields; cleared when a collar changes hands (its readings go with it). */
const NO_VITALS = {
  temperature_celsius: null,
  humidity_percent: null,
  heart_rate: null,
  activity_level: null,
  vitals_status: null,
  vitals_recorded_at: null,
} as const;

const num = (v: number | string | null) => (v === null ? null : Number(v));

export function toDevice(row: DeviceWithNames): Device {
  return {
    id: row.id,
    device_id: row.device_id,
    device_address: row.device_address,
    device_name: row.device_name,
    device_type: row.device_type,
    status: row.status,
    registration_status: row.registration_status,
    user_id: row.user_id,
    dog_id: row.dog_id,
    dog_name: row.dog_name,
    owner_name: row.owner_name,
    firmware_version: row.firmware_version,
    battery_level: num(row.battery_level),
    last_seen: row.last_seen,
    created_at: row.created_at,
    updated_at: row.updated_at,
    temperature_celsius: num(row.temperature_celsius),
    humidity_percent: num(row.humidity_percent),
    heart_rate: num(row.heart_rate),
    activity_level: num(row.activity_level),
    vitals_status: row.vitals_status,
    vitals_recorded_at: row.vitals_recorded_at,
  };
}

/** A page of devices as the API answers it. */
export type DevicePage = { devices: Device[]; total: number };
const devicePage = ({ rows, total }: { rows: DeviceWithNames[]; total: number }): DevicePage => ({
  devices: rows.map(toDevice),
  total,
});

const qrPng = (text: string) =>
  QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 256 });

/**
 * Runs a write naming a pet; a pet deleted between our check and the write fails the
 * foreign key, which is the same answer as a pet that was never there.
 */
async function onLivePet<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new NotFoundError(PET_NOT_FOUND);
    throw err;
  }
}

export interface DeviceServiceDeps {
  db: Kysely<Database>;
  devices: DevicesRepository;
  dogs: DogsRepository;
  users: UsersRepository;
  outbox: OutboxRepository;
  clock: Clock;
  /** by-device-id and the fallback share one budget per user: both reveal whether an id exists. */
  lookupLimit: FixedWindowLimit;
  /** Auto-assign reservations per user (5 an hour by default): the fleet is shared. */
  autoAssignLimit: FixedWindowLimit;
  onMailQueued: () => void;
  /** Told after commit whenever a device's key changes or it may no longer post. */
  lifecycle: DeviceLifecycle;
}

/** What the owner or an admin did with DELETE. */
export type RemoveOutcome = 'released' | 'removed';

export class DeviceService {
  constructor(private readonly d: DeviceServiceDeps) {}

  private now() {
    return this.d.clock.now().toISOString();
  }

  private isAdmin(actor: User) {
    return actor.role === 'admin';
  }

  /** A device the actor may see: their own, or any for an admin. Anything else is not found. */
  private async visible(actor: User, id: string): Promise<DeviceWithNames> {
    const row = await this.d.devices.findById(id);
    if (!row || (row.user_id !== actor.id && !this.isAdmin(actor)))
      throw new NotFoundError(DEVICE_NOT_FOUND);
    return row;
  }

  private async reload(id: string, ex?: Transaction<Database>): Promise<Device> {
    const row = await this.d.devices.findById(id, ex);
    if (!row) throw new NotFoundError(DEVICE_NOT_FOUND);
    return toDevice(row);
  }

  private checkType(actor: User, type: DeviceType) {
    if (!this.isAdmin(actor) && !isCustomerDeviceType(type))
      throw new BadRequestError(CUSTOMER_TYPE_ONLY);
  }

  private async ownPet(petId: string, ownerId: string) {
    const pet = await this.d.dogs.findOwned(petId, ownerId);
    if (!pet) throw new NotFoundError(PET_NOT_FOUND);
    return pet;
  }

  /** 409 for a Device ID someone holds, worded for whoever asks. */
  private heldBy(row: DeviceRow, actor: User): ConflictError {
    return row.user_id === actor.id
      ? new ConflictError(`Device ${row.device_id} is already registered to you.`)
      : new ConflictError(MESSAGES.deviceAlreadyAssigned(row.device_id));
  }

  async listMine(userId: string, page: PageRequest): Promise<DevicePage> {
    return devicePage(await this.d.devices.pageByUser(userId, page));
  }

  async listAll(page: PageRequest): Promise<DevicePage> {
    return devicePage(await this.d.devices.pageAll(page));
  }

  async listUnassigned(page: PageRequest): Promise<DevicePage> {
    return devicePage(await this.d.devices.pageUnassigned(page));
  }

  async get(actor: User, id: string): Promise<Device> {
    return toDevice(await this.visible(actor, id));
  }

  async byMac(mac: string): Promise<Device> {
    const row = await this.d.devices.findByMac(mac);
    if (!row) throw new NotFoundError(`No device has the MAC address ${mac}`);
    return toDevice(row);
  }

  /** 'PET-' + 4 random characters that no device uses yet. */
  async generateId(): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const id = generateDeviceId(randomInt);
      if (!(await this.d.devices.deviceIdExists(id))) return id;
    }
    throw new ConflictError('Could not find an unused Device ID. Please try again.');
  }

  async qrCode(actor: User, id: string): Promise<string> {
    const row = await this.visible(actor, id);
    return qrPng(row.device_id);
  }

  /**
   * PUT /api/devices/{id}. The owner renames the collar and moves it between their pets
   * (an omitted dog_id takes it off its pet; an omitted name or type keeps the stored one).
   * A customer may not change the type to anything but a collar, nor set `status` (403).
   * An admin may set `status` on any device, but a customer's other fields are changed only
   * by that customer (DESIGN §5): an admin's PUT on a device someone else holds changes the
   * status and nothing else, and answers 403 if it asks for more.
   */
  async update(actor: User, id: string, input: UpdateDeviceInput): Promise<Device> {
    const row = await this.visible(actor, id);
    const admin = this.isAdmin(actor);
    if (input.status !== undefined && !admin)
      throw new ForbiddenError('Only an admin can change a device status');
    if (row.user_id !== null && row.user_id !== actor.id) {
      const rewrites =
        (input.device_name !== undefined && input.device_name !== row.device_name) ||
        (input.device_type !== undefined && input.device_type !== row.device_type) ||
        (input.dog_id !== undefined && input.dog_id !== row.dog_id);
      if (rewrites)
        throw new ForbiddenError(
          "An admin can change only the status of a customer's device; its name, type and pet are the customer's.",
        );
      if (input.status === undefined || input.status === row.status) return toDevice(row);
      const ok = await this.d.devices.update(
        id,
        { status: input.status, updated_at: this.now() },
        row.user_id,
      );
      if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
      return this.reload(id);
    }
    const type = input.device_type ?? row.device_type;
    // Keeping a vest a vest is fine; only a change to a type customers cannot use is refused.
    if (type !== row.device_type) this.checkType(actor, type);
    const dogId = input.dog_id ?? null;
    if (dogId !== null) {
      if (!row.user_id) throw new NotFoundError(PET_NOT_FOUND);
      await this.ownPet(dogId, row.user_id);
    }
    const changes: DeviceChanges = {
      device_name: input.device_name ?? row.device_name,
      device_type: type,
      dog_id: dogId,
      updated_at: this.now(),
    };
    if (input.status !== undefined) changes.status = input.status;
    // The owner condition keeps a concurrent release from being undone.
    const ok = await onLivePet(() =>
      this.d.devices.update(id, changes, row.user_id === actor.id ? actor.id : undefined),
    );
    if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
    return this.reload(id);
  }

  /**
   * The owner's DELETE releases the collar (owner, pet and name cleared, back to unassigned,
   * key kept, latest vitals cleared); a customer's unregistered device has nothing to go back
   * to and is removed. An admin's DELETE of a device they do not hold removes it.
   */
  async remove(actor: User, id: string): Promise<RemoveOutcome> {
    const row = await this.visible(actor, id);
    let outcome: RemoveOutcome;
    if (row.user_id === actor.id) {
      const ok =
        row.registration_status === 'unregistered'
          ? await this.d.devices.delete(id, actor.id)
          : await this.d.devices.update(id, this.releaseChanges(row), actor.id);
      if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
      outcome = 'released';
    } else {
      if (!(await this.d.devices.delete(id))) throw new NotFoundError(DEVICE_NOT_FOUND);
      outcome = 'removed';
    }
    this.d.lifecycle.credentialsChanged({ id, device_id: row.device_id, reason: outcome });
    return outcome;
  }

  /**
   * POST rotate-key (admin): a new key for a device that has one; the old key is refused
   * from the next request on (DEV-4). Shown in this answer only, like pre-populate's.
   */
  async rotateKey(id: string): Promise<PrePopulatedDevice> {
    const row = await this.d.devices.findById(id);
    if (!row) throw new NotFoundError(DEVICE_NOT_FOUND);
    if (!row.device_key_hash) {
      throw new ConflictError(
        `Device ${row.device_id} has no key yet: pre-populate its Device ID to give it one.`,
      );
    }
    const key = newDeviceKey();
    const qr = await qrPng(key);
    const ok = await this.d.devices.update(id, {
      device_key_hash: hashDeviceKey(key),
      updated_at: this.now(),
    });
    if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
    this.d.lifecycle.credentialsChanged({ id, device_id: row.device_id, reason: 'rotated' });
    return {
      id,
      device_id: row.device_id,
      device_key: key,
      qr_code: qr,
      adopted: false,
      owner_name: row.owner_name,
    };
  }

  private releaseChanges(row: DeviceRow): DeviceChanges {
    return {
      user_id: null,
      dog_id: null,
      device_name: defaultDeviceName(row.device_id),
      registration_status:
        nextRegistrationStatus(row.registration_status, 'release') ?? 'unassigned',
      status: statusAfterRelease(row.status),
      ...NO_VITALS,
      updated_at: this.now(),
    };
  }

  /** GET by-device-id: only whether it can be claimed. */
  async lookup(actor: User, deviceId: string): Promise<DeviceLookup> {
    this.d.lookupLimit.take(actor.id, this.d.clock.now().getTime());
    const row = await this.d.devices.findByDeviceId(deviceId);
    if (!row) throw new NotFoundError(`Device ${deviceId} was not found`);
    if (row.registration_status === 'unassigned') {
      if (!this.isAdmin(actor) && !isCustomerDeviceType(row.device_type))
        throw new BadRequestError(notACollar(row));
      return { status: 'unassigned', message: `Device ${deviceId} is available to register.` };
    }
    return { status: 'assigned', message: this.heldBy(row, actor).message };
  }

  /** POST assign/{deviceId}: claims an unassigned collar for one of the caller's pets. */
  async assign(actor: User, deviceId: string, input: AssignDeviceInput): Promise<Device> {
    // Its answers (409 / 404) tell whether a Device ID exists, just as the look-up does, so it
    // spends the same per-user budget against enumeration.
    this.d.lookupLimit.take(actor.id, this.d.clock.now().getTime());
    const type = input.device_type ?? 'collar';
    this.checkType(actor, type);
    await this.ownPet(input.dog_id, actor.id);
    const admin = this.isAdmin(actor);
    const won = await onLivePet(() =>
      this.d.devices.claimUnassigned(
        { deviceId },
        {
          user_id: actor.id,
          dog_id: input.dog_id,
          device_name: input.device_name,
          // A customer's claim never rewrites what the admin provisioned (spec: customers use collars).
          ...(admin ? { device_type: type } : {}),
          registration_status: nextRegistrationStatus('unassigned', 'claim')!,
          ...NO_VITALS,
          updated_at: this.now(),
        },
        undefined,
        admin ? undefined : 'collar',
      ),
    );
    const row = await this.d.devices.findByDeviceId(deviceId);
    if (!row) throw new NotFoundError(`Device ${deviceId} was not found`);
    if (!won && row.registration_status === 'unassigned' && !admin) {
      throw new BadRequestError(notACollar(row));
    }
    if (!won) throw this.heldBy(row, actor);
    return toDevice(row);
  }

  /** POST /api/devices: the fallback for an unknown Device ID; unregistered, no key. */
  async createUnregistered(actor: User, input: CreateDeviceInput): Promise<Device> {
    this.d.lookupLimit.take(actor.id, this.d.clock.now().getTime());
    const type = input.device_type ?? 'collar';
    this.checkType(actor, type);
    await this.ownPet(input.dog_id, actor.id);
    const mac = input.device_address ? input.device_address : null;
    const existing = await this.d.devices.findByDeviceId(input.device_id);
    if (existing) {
      if (existing.registration_status === 'unassigned') {
        throw new ConflictError(
          `Device ${input.device_id} already exists. Register it by its Device ID instead.`,
        );
      }
      throw this.heldBy(existing, actor);
    }
    if (mac && (await this.d.devices.findByMac(mac))) {
      throw new ConflictError(`MAC address ${mac} is already registered to another device.`);
    }
    const now = this.now();
    const row: DeviceRow = {
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
      await onLivePet(() => this.d.devices.insert(row));
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(MESSAGES.deviceAlreadyAssigned(input.device_id));
      throw err;
    }
    return this.reload(row.id);
  }

  /**
   * Pre-populates a list, all or nothing. A Device ID held only by a customer's unregistered
   * device is adopted (MAC and key set, owner and pet kept, now assigned); any other
   * duplicate Device ID or MAC, in the list or stored, is a 409 naming it.
   */
  async prePopulate(input: PrePopulateInput): Promise<PrePopulatedDevice[]> {
    const seenIds = new Set<string>();
    const seenMacs = new Set<string>();
    for (const item of input.devices) {
      if (seenIds.has(item.device_id))
        throw new ConflictError(`Device ID ${item.device_id} appears more than once in the list`);
      if (seenMacs.has(item.device_address)) {
        throw new ConflictError(
          `MAC address ${item.device_address} appears more than once in the list`,
        );
      }
      seenIds.add(item.device_id);
      seenMacs.add(item.device_address);
    }
    // Keys and their QR codes first: nothing slow happens inside the transaction.
    const prepared = await Promise.all(
      input.devices.map(async (item) => {
        const key = newDeviceKey();
        return { item, key, qr: await qrPng(key) };
      }),
    );
    const now = this.now();
    let out: PrePopulatedDevice[];
    try {
      out = await this.d.db.transaction().execute(async (trx) => {
        const out: PrePopulatedDevice[] = [];
        for (const { item, key, qr } of prepared) {
          const existing = await this.d.devices.findByDeviceId(item.device_id, trx);
          const adopt = existing
            ? nextRegistrationStatus(existing.registration_status, 'adopt')
            : null;
          if (existing && !adopt)
            throw new ConflictError(`Device ID ${item.device_id} already exists`);
          const macHolder = await this.d.devices.findByMac(item.device_address, trx);
          if (macHolder && macHolder.id !== existing?.id) {
            throw new ConflictError(
              `MAC address ${item.device_address} is already used by device ${macHolder.device_id}`,
            );
          }
          if (existing && adopt) {
            await this.d.devices.update(
              existing.id,
              {
                device_address: item.device_address,
                device_key_hash: hashDeviceKey(key),
                registration_status: adopt,
                updated_at: now,
              },
              undefined,
              trx,
            );
            out.push({
              id: existing.id,
              device_id: existing.device_id,
              device_key: key,
              qr_code: qr,
              adopted: true,
              owner_name: existing.owner_name,
            });
            continue;
          }
          const id = randomUUID();
          await this.d.devices.insert(
            {
              id,
              device_id: item.device_id,
              device_address: item.device_address,
              device_name: item.device_name ? item.device_name : defaultDeviceName(item.device_id),
              device_type: item.device_type ?? 'collar',
              status: INITIAL_DEVICE_STATUS,
              registration_status: 'unassigned',
              user_id: null,
              dog_id: null,
              firmware_version: null,
              battery_level: null,
              last_seen: null,
              created_at: now,
              updated_at: now,
              device_key_hash: hashDeviceKey(key),
              ...NO_VITALS,
            },
            trx,
          );
          out.push({
            id,
            device_id: item.device_id,
            device_key: key,
            qr_code: qr,
            adopted: false,
            owner_name: null,
          });
        }
        return out;
      });
    } catch (err) {
      // Another request stored one of these ids between our check and our insert.
      if (isUniqueViolation(err))
        throw new ConflictError('A Device ID or MAC address in the list already exists');
      throw err;
    }
    this.d.lifecycle.credentialsChanged(
      out
        .filter((d) => d.adopted)
        .map((d) => ({ id: d.id, device_id: d.device_id, reason: 'rekeyed' as const })),
    );
    return out;
  }

  /** POST register (admin): gives an unassigned device to a user (on none of their pets). */
  async registerToUser(input: RegisterDeviceInput): Promise<Device> {
    const row = await this.d.devices.findByDeviceId(input.device_id);
    if (!row) throw new NotFoundError(`Device ${input.device_id} was not found`);
    const user = await this.d.users.findById(input.user_id);
    if (!user) throw new NotFoundError('User not found');
    if (row.user_id === user.id) return toDevice(row);
    const next = nextRegistrationStatus(row.registration_status, 'admin-assign');
    if (!next) {
      throw new ConflictError(
        row.registration_status === 'unregistered'
          ? `Device ${row.device_id} has not been pre-populated yet`
          : MESSAGES.deviceAlreadyAssigned(row.device_id),
      );
    }
    const won = await this.d.devices.claimUnassigned(
      { id: row.id },
      {
        user_id: user.id,
        dog_id: null,
        registration_status: next,
        ...NO_VITALS,
        updated_at: this.now(),
      },
    );
    if (!won) throw new ConflictError(MESSAGES.deviceAlreadyAssigned(row.device_id));
    return this.reload(row.id);
  }

  /**
   * POST auto-assign: reserves the oldest free collar for the pet, assigns it at once and
   * mails the Device ID with the set-up steps, in one transaction. The fleet is shared, so a
   * user may reserve only a few an hour, and a pet that already has a collar waiting for its
   * first reading gets no second one this way (claiming by the printed Device ID still works).
   */
  async autoAssign(actor: User, input: AutoAssignInput): Promise<Device> {
    this.d.autoAssignLimit.take(actor.id, this.d.clock.now().getTime());
    await this.ownPet(input.dog_id, actor.id);
    const now = this.now();
    const device = await this.d.db.transaction().execute(async (trx) => {
      // Locked: two requests for one pet cannot both find it without a waiting collar.
      const pet = await this.d.dogs.lockOwned(input.dog_id, actor.id, trx);
      if (!pet) throw new NotFoundError(PET_NOT_FOUND);
      const waiting = await this.d.devices.findWaitingOnPet(pet.id, trx);
      if (waiting) {
        throw new ConflictError(
          `${pet.name} already has a collar waiting for its first reading (${waiting.device_id}). Set that one up first, or register a collar by its Device ID.`,
        );
      }
      // Another request may take a candidate first; the conditional claim tells us, and we
      // move on. Each lost claim means that collar is gone, so the free list shrinks every
      // round: we stop only with a collar, or when none is free.
      for (;;) {
        const candidates = await this.d.devices.freeCollarIds(5, trx);
        if (candidates.length === 0) throw new ConflictError(MESSAGES.noCollarsAvailable);
        for (const { id } of candidates) {
          const won = await this.d.devices.claimUnassigned(
            { id },
            {
              user_id: actor.id,
              dog_id: pet.id,
              device_name: input.device_name,
              registration_status: nextRegistrationStatus('unassigned', 'claim')!,
              ...NO_VITALS,
              updated_at: now,
            },
            trx,
          );
          if (!won) continue;
          const claimed = await this.reload(id, trx);
          await this.d.outbox.enqueue(
            collarSetupMail({
              assignmentKey: `${id}-${now}`,
              to: actor.email,
              ownerName: actor.name,
              petName: pet.name,
              deviceId: claimed.device_id,
              deviceName: claimed.device_name,
            }),
            now,
            trx,
          );
          return claimed;
        }
      }
    });
    this.d.onMailQueued();
    return device;
  }

  /** The collar itself reports its firmware and MAC (authenticated by its key). */
  async selfRegister(deviceUuid: string, input: SelfRegisterInput) {
    const holder = await this.d.devices.findByMac(input.device_address);
    if (holder && holder.id !== deviceUuid) {
      throw new ConflictError(
        `MAC address ${input.device_address} is already used by another device`,
      );
    }
    const now = this.now();
    try {
      const ok = await this.d.devices.update(deviceUuid, {
        firmware_version: input.firmware_version,
        device_address: input.device_address,
        last_seen: now,
        updated_at: now,
      });
      if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
    } catch (err) {
      if (isUniqueViolation(err))
        throw new ConflictError(
          `MAC address ${input.device_address} is already used by another device`,
        );
      throw err;
    }
    const d = await this.reload(deviceUuid);
    return {
      device_id: d.device_id,
      device_address: d.device_address,
      firmware_version: d.firmware_version,
      registration_status: d.registration_status,
      status: d.status,
    };
  }

  /** `Authorization: Device <key>` → the device it belongs to, or null. */
  async authenticateKey(key: string): Promise<{ id: string; deviceId: string } | null> {
    const row = await this.d.devices.findByKeyHash(hashDeviceKey(key));
    return row ? { id: row.id, deviceId: row.device_id } : null;
  }

  /** A deleted pet's collars stay with the owner, on no pet (in the pet's transaction). */
  async onPetDeleted(petId: string, trx: Kysely<Database>): Promise<void> {
    await this.d.devices.clearPet(petId, this.now(), trx);
  }

  /**
   * A deleted account's collars go back to the fleet; its unregistered devices go. Runs in
   * the account's transaction; returns what to announce once that has committed.
   */
  async onUserDeleted(userId: string, trx: Kysely<Database>): Promise<() => void> {
    const changes: CredentialsChange[] = [];
    for (const row of await this.d.devices.listOwnedRows(userId, trx)) {
      if (row.registration_status === 'unregistered')
        await this.d.devices.delete(row.id, userId, trx);
      else await this.d.devices.update(row.id, this.releaseChanges(row), userId, trx);
      changes.push({ id: row.id, device_id: row.device_id, reason: 'user_deleted' });
    }
    return () => this.d.lifecycle.credentialsChanged(changes);
  }
}
