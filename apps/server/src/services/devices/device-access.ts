import { MESSAGES, isCustomerDeviceType, type DeviceType, type User } from '@pawguard/shared';
import { isForeignKeyViolation } from '../../db/index.js';
import type {
  DeviceRow,
  DevicesRepository,
  DeviceWithNames,
} from '../../repositories/devices-repository.js';
import type { DogsRepository } from '../../repositories/dogs-repository.js';
import { DOG_NOT_FOUND } from '../dog-service.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors.js';
import type { DeviceRelation, PetAccess } from '../pet-access.js';

/**
 * What the device services share: who may see a device, which pets are the caller's, and the
 * answers that must read the same wherever they are given.
 */
export const DEVICE_NOT_FOUND = 'Device not found';
export { DOG_NOT_FOUND };
const CUSTOMER_TYPE_ONLY = 'device_type must be collar: customers can only register collars';

export const notACollar = (row: { device_id: string; device_type: DeviceType }) =>
  `Device ${row.device_id} is a ${row.device_type}; customers may register collars only.`;

/** The heat-risk fields: cleared when a collar changes hands or pets (a new dog, a new past). */
export const NO_RISK = {
  risk_band: null,
  risk_score: null,
  risk_reasons: null,
  risk_state: null,
} as const;

/** The latest-vitals fields; cleared when a collar changes hands (its readings go with it). */
export const NO_VITALS = {
  temperature_celsius: null,
  humidity_percent: null,
  heart_rate: null,
  activity_level: null,
  vitals_status: null,
  vitals_recorded_at: null,
  ...NO_RISK,
  battery_alert_armed: 1,
  auto_assigned: 0,
} as const;

export const isAdmin = (actor: User) => actor.role === 'admin';

/** A customer may only use collars; an admin any type. */
export function checkType(actor: User, type: DeviceType): void {
  if (!isAdmin(actor) && !isCustomerDeviceType(type)) throw new BadRequestError(CUSTOMER_TYPE_ONLY);
}

/** 409 for a Device ID someone holds, worded for whoever asks. */
export function heldBy(row: DeviceRow, actor: User): ConflictError {
  return row.user_id === actor.id
    ? new ConflictError(`Device ${row.device_id} is already registered to you.`)
    : new ConflictError(MESSAGES.deviceAlreadyAssigned(row.device_id));
}

/**
 * Runs a write naming a pet; a pet deleted between our check and the write fails the
 * foreign key, which is the same answer as a pet that was never there.
 */
export async function onLiveDog<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new NotFoundError(DOG_NOT_FOUND);
    throw err;
  }
}

export class DeviceAccess {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly dogs: DogsRepository,
    private readonly pets: PetAccess,
  ) {}

  /**
   * A device the actor may see: their own, one on a pet whose pack they are in (docs/pack.md),
   * or any for an admin. Anything else is not found.
   */
  async visible(actor: User, id: string): Promise<DeviceWithNames> {
    return (await this.seen(actor, id)).row;
  }

  /** A device the actor may see, and what they are to it (owner, pack member or admin). */
  async seen(actor: User, id: string): Promise<{ row: DeviceWithNames; as: DeviceRelation }> {
    const row = await this.devices.findById(id);
    const as = row ? await this.pets.device(actor, row) : null;
    if (!row || !as) throw new NotFoundError(DEVICE_NOT_FOUND);
    return { row, as };
  }

  /** The pet, when it is `ownerId`'s; another user's pet is simply not found. */
  async ownDog(dogId: string, ownerId: string) {
    const dog = await this.dogs.findOwned(dogId, ownerId);
    if (!dog) throw new NotFoundError(DOG_NOT_FOUND);
    return dog;
  }
}
