import type { Device, User } from '@pawguard/shared';
import { toDevice, type DevicesRepository } from '../../repositories/devices-repository.js';
import type { PageRequest } from '../../repositories/paging.js';
import { NotFoundError } from '../errors.js';
import type { DeviceAccess } from './device-access.js';
import type { DeviceRelation } from '../pet-access.js';
import type { Clock } from '../clock.js';
import { qrPng } from './qr.js';

/** A page of devices as the API answers it. */
export type DevicePage = { devices: Device[]; total: number };

/** Reading devices: an owner's, the fleet's, one by id or MAC, and a Device ID's QR code. */
export class DeviceQueries {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly access: DeviceAccess,
    private readonly clock: Clock,
  ) {}

  /** The person's collars and those on pets shared with them (docs/pack.md). */
  listMine(userId: string, page: PageRequest): Promise<DevicePage> {
    return this.devices.pageByUser(userId, page, this.clock.now().toISOString());
  }

  listAll(page: PageRequest): Promise<DevicePage> {
    return this.devices.pageAll(page);
  }

  listUnassigned(page: PageRequest): Promise<DevicePage> {
    return this.devices.pageUnassigned(page);
  }

  async get(actor: User, id: string): Promise<Device> {
    return toDevice(await this.access.visible(actor, id));
  }

  /** A device the actor may see, and what they are to it (owner, pack member or admin). */
  async seen(actor: User, id: string): Promise<{ device: Device; as: DeviceRelation }> {
    const { row, as } = await this.access.seen(actor, id);
    return { device: toDevice(row), as };
  }

  /** The device with the readings it keeps (its own count: ingest adds, retention takes away). */
  async withReadingsStored(
    actor: User,
    id: string,
  ): Promise<{ device: Device; readingsStored: number }> {
    const row = await this.access.visible(actor, id);
    return { device: toDevice(row), readingsStored: Number(row.readings_stored) };
  }

  /**
   * By the printed Device ID, for its owner or an admin (anyone else: 404): what may post
   * readings for it with a sign-in. A member of its pet's pack sees the collar but never writes
   * its readings (docs/pack.md).
   */
  async getByDeviceId(actor: User, deviceId: string): Promise<Device> {
    const row = await this.devices.findByDeviceId(deviceId);
    if (!row || (row.user_id !== actor.id && actor.role !== 'admin'))
      throw new NotFoundError(`Device ${deviceId} was not found`);
    return toDevice(row);
  }

  async byMac(mac: string): Promise<Device> {
    const row = await this.devices.findByMac(mac);
    if (!row) throw new NotFoundError(`No device has the MAC address ${mac}`);
    return toDevice(row);
  }

  /** A QR code of the Device ID (never of the key). */
  async qrCode(actor: User, id: string): Promise<string> {
    const row = await this.access.visible(actor, id);
    return qrPng(row.device_id);
  }
}
