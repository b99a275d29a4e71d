import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  INITIAL_DEVICE_STATUS,
  MESSAGES,
  defaultDeviceName,
  generateDeviceId,
  nextRegistrationStatus,
  type Device,
  type PrePopulateInput,
  type PrePopulatedDevice,
  type RegisterDeviceInput,
} from '@pawguard/shared';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/index.js';
import { toDevice, type DevicesRepository } from '../../repositories/devices-repository.js';
import type { UsersRepository } from '../../repositories/users-repository.js';
import type { Clock } from '../clock.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { DeviceNews } from './device-news.js';
import { DEVICE_NOT_FOUND, NO_VITALS } from './device-access.js';
import { issueKey } from './device-credentials.js';

/** The admin's fleet work: pre-populating devices, giving one to a user, fresh Device IDs. */
export class FleetProvisioning {
  constructor(
    private readonly d: {
      db: Kysely<Database>;
      devices: DevicesRepository;
      users: UsersRepository;
      news: DeviceNews;
      clock: Clock;
    },
  ) {}

  /** 'PET-' + 4 random characters that no device uses yet. */
  async generateId(): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const id = generateDeviceId(randomInt);
      if (!(await this.d.devices.deviceIdExists(id))) return id;
    }
    throw new ConflictError('Could not find an unused Device ID. Please try again.');
  }

  /**
   * Pre-populates a list, all or nothing. A Device ID held only by a customer's unregistered
   * device is adopted (MAC and key set, owner and pet kept, now assigned); any other
   * duplicate Device ID or MAC, in the list or stored, is a 409 naming it.
   */
  async prePopulate(input: PrePopulateInput): Promise<PrePopulatedDevice[]> {
    rejectDuplicatesWithin(input);
    const prepared = input.devices.map((item) => ({ item, ...issueKey() }));
    const now = this.d.clock.now().toISOString();
    let out: PrePopulatedDevice[];
    try {
      out = await this.d.db.transaction().execute(async (trx) => {
        const done: PrePopulatedDevice[] = [];
        for (const { item, key, hash, qr } of prepared) {
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
          const issued = { device_key: key, qr_code: qr };
          if (existing && adopt) {
            await this.d.devices.update(
              existing.id,
              {
                device_address: item.device_address,
                device_key_hash: hash,
                registration_status: adopt,
                updated_at: now,
              },
              { ex: trx },
            );
            done.push({
              id: existing.id,
              device_id: existing.device_id,
              ...issued,
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
              device_key_hash: hash,
              ...NO_VITALS,
            },
            trx,
          );
          done.push({ id, device_id: item.device_id, ...issued, adopted: false, owner_name: null });
        }
        return done;
      });
    } catch (err) {
      // Another request stored one of these ids between our check and our insert.
      if (isUniqueViolation(err))
        throw new ConflictError('A Device ID or MAC address in the list already exists');
      throw err;
    }
    this.d.news.credentialsChanged(
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
    const won = await this.d.devices.claim({ id: row.id }, 'admin-assign', {
      user_id: user.id,
      dog_id: null,
      registration_status: next,
      ...NO_VITALS,
      updated_at: this.d.clock.now().toISOString(),
    });
    if (!won) throw new ConflictError(MESSAGES.deviceAlreadyAssigned(row.device_id));
    const after = await this.d.devices.findById(row.id);
    if (!after) throw new NotFoundError(DEVICE_NOT_FOUND);
    this.d.news.deviceUpdated(row.id, user.id);
    return toDevice(after);
  }
}

/** A Device ID or MAC twice in one list is refused before anything is stored. */
function rejectDuplicatesWithin(input: PrePopulateInput): void {
  const seenIds = new Set<string>();
  const seenMacs = new Set<string>();
  for (const item of input.devices) {
    if (seenIds.has(item.device_id))
      throw new ConflictError(`Device ID ${item.device_id} appears more than once in the list`);
    if (seenMacs.has(item.device_address))
      throw new ConflictError(
        `MAC address ${item.device_address} appears more than once in the list`,
      );
    seenIds.add(item.device_id);
    seenMacs.add(item.device_address);
  }
}
