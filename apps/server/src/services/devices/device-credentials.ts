import { hash, randomBytes } from 'node:crypto';
import type { PrePopulatedDevice, SelfRegisterInput } from '@pawguard/shared';
import { isUniqueViolation } from '../../db/index.js';
import type { DevicesRepository } from '../../repositories/devices-repository.js';
import type { Clock } from '../clock.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { DeviceNews } from './device-news.js';
import { DEVICE_NOT_FOUND } from './device-access.js';
import { qrPng } from './qr.js';

/** 32 random bytes: 256 bits, well over the 128 the checklist asks of a device credential. */
export const newDeviceKey = () => randomBytes(32).toString('base64url');
/** A fast hash is enough for a long random secret (nothing to brute-force). */
export const hashDeviceKey = (key: string) => hash('sha256', key, 'hex');

/** A new key with its QR code, made before any transaction (nothing slow happens inside one). */
export function issueKey(): { key: string; hash: string; qr: string } {
  const key = newDeviceKey();
  return { key, hash: hashDeviceKey(key), qr: qrPng(key) };
}

/** The collar's credential: checking it, the collar reporting itself, and an admin's rotation. */
export class DeviceCredentials {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly news: DeviceNews,
    private readonly clock: Clock,
  ) {}

  /** The collar itself reports its firmware and MAC (authenticated by its key). */
  async selfRegister(deviceUuid: string, input: SelfRegisterInput) {
    const inUse = () =>
      new ConflictError(`MAC address ${input.device_address} is already used by another device`);
    const holder = await this.devices.findByMac(input.device_address);
    if (holder && holder.id !== deviceUuid) throw inUse();
    const now = this.clock.now().toISOString();
    try {
      const ok = await this.devices.update(deviceUuid, {
        firmware_version: input.firmware_version,
        device_address: input.device_address,
        last_seen: now,
        updated_at: now,
      });
      if (!ok) throw new NotFoundError(DEVICE_NOT_FOUND);
    } catch (err) {
      if (isUniqueViolation(err)) throw inUse();
      throw err;
    }
    const d = await this.devices.findById(deviceUuid);
    if (!d) throw new NotFoundError(DEVICE_NOT_FOUND);
    return {
      device_id: d.device_id,
      device_address: d.device_address,
      firmware_version: d.firmware_version,
      registration_status: d.registration_status,
      status: d.status,
    };
  }

  /**
   * POST rotate-key (admin): a new key for a device that has one; the old key is refused
   * from the next request on (DEV-4). Shown in this answer only, like pre-populate's.
   */
  async rotateKey(id: string): Promise<PrePopulatedDevice> {
    const row = await this.devices.findById(id);
    if (!row) throw new NotFoundError(DEVICE_NOT_FOUND);
    if (!row.device_key_hash) {
      throw new ConflictError(
        `Device ${row.device_id} has no key yet: pre-populate its Device ID to give it one.`,
      );
    }
    const { key, hash, qr } = issueKey();
    // Only over the key read above: of two rotations at once, one key wins and the other
    // admin is told, instead of holding a key that was replaced before it was ever shown.
    const ok = await this.devices.update(
      id,
      { device_key_hash: hash, updated_at: this.clock.now().toISOString() },
      { keyHash: row.device_key_hash },
    );
    if (!ok) {
      if (!(await this.devices.findById(id))) throw new NotFoundError(DEVICE_NOT_FOUND);
      throw new ConflictError(
        `Another admin just issued a new key for ${row.device_id}; this one was not issued. Rotating again would replace theirs.`,
      );
    }
    this.news.credentialsChanged({
      id,
      device_id: row.device_id,
      reason: 'rotated',
      owner_id: row.user_id,
    });
    return {
      id,
      device_id: row.device_id,
      device_key: key,
      qr_code: qr,
      adopted: false,
      owner_name: row.owner_name,
    };
  }
}
