import type { DevicePrincipal } from '../plugins/auth.js';
import { hashDeviceKey } from './device-service.js';

/**
 * Collar keys, checked without a database round trip per reading: a key's sha256 maps to its
 * device once it has been seen. A key that changes or stops being valid is dropped by device
 * id (removal, re-key, release), so a stale entry can only ever be one that is about to be
 * refused by the ingest transaction anyway, which re-reads the device.
 */
export class DeviceKeyCache {
  private readonly byHash = new Map<string, DevicePrincipal>();
  private readonly hashById = new Map<string, string>();

  constructor(
    private readonly lookup: (hash: string) => Promise<DevicePrincipal | null>,
    private readonly capacity = 100_000,
  ) {}

  async authenticate(key: string): Promise<DevicePrincipal | null> {
    const hash = hashDeviceKey(key);
    const hit = this.byHash.get(hash);
    if (hit) return hit;
    const found = await this.lookup(hash);
    if (!found) return null;
    if (this.byHash.size >= this.capacity) this.clear();
    this.byHash.set(hash, found);
    this.hashById.set(found.id, hash);
    return found;
  }

  invalidate(deviceUuid: string): void {
    const hash = this.hashById.get(deviceUuid);
    if (hash === undefined) return;
    this.hashById.delete(deviceUuid);
    this.byHash.delete(hash);
  }

  clear(): void {
    this.byHash.clear();
    this.hashById.clear();
  }
}
