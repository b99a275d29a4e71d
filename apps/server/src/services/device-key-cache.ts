import { hashDeviceKey } from './device-service.js';

/** A collar as its key identifies it, over HTTP (plugins/auth.ts) and MQTT alike. */
export interface DevicePrincipal {
  /** The printed Device ID. */
  deviceId: string;
  /** The device row's id. */
  id: string;
}

/**
 * Collar keys, checked without a database round trip per reading: a key's sha256 maps to its
 * device once it has been seen. A key that changes or stops being valid is dropped by device
 * id (removal, re-key, release), so a stale entry can only ever be one that is about to be
 * refused by the ingest transaction anyway, which re-reads the device.
 */
/** Two sources using one key within this window look like a copied credential (DEV-4). */
export const SHARED_KEY_WINDOW_MS = 60_000;
/** Keys seen to be unknown are remembered this long, so a flood of wrong keys stays cheap. */
const UNKNOWN_TTL_MS = 60_000;

export class DeviceKeyCache {
  private readonly byHash = new Map<string, DevicePrincipal>();
  private readonly hashById = new Map<string, string>();
  private readonly unknown = new Map<string, number>();
  private readonly lastSource = new Map<string, { source: string; at: number; warned: number }>();

  constructor(
    private readonly lookup: (hash: string) => Promise<DevicePrincipal | null>,
    private readonly capacity = 100_000,
  ) {}

  async authenticate(key: string): Promise<DevicePrincipal | null> {
    const hash = hashDeviceKey(key);
    const hit = this.byHash.get(hash);
    if (hit) return hit;
    const now = Date.now();
    const unknownUntil = this.unknown.get(hash);
    if (unknownUntil !== undefined && unknownUntil > now) return null;
    const found = await this.lookup(hash);
    if (!found) {
      // Keys are 256 random bits: one that is unknown now is not about to be issued.
      if (this.unknown.size >= this.capacity) this.unknown.clear();
      this.unknown.set(hash, now + UNKNOWN_TTL_MS);
      return null;
    }
    if (this.byHash.size >= this.capacity) this.clear();
    this.byHash.set(hash, found);
    this.hashById.set(found.id, hash);
    return found;
  }

  /**
   * Notes where a device's key was just used from (an IP address). Answers true, once a
   * minute, when another source used the same key within the last minute: a key copied to a
   * second device, or a collar and an impostor taking turns (DEV-4).
   */
  sharedFrom(deviceUuid: string, source: string, now = Date.now()): boolean {
    const last = this.lastSource.get(deviceUuid);
    if (!last) {
      if (this.lastSource.size >= this.capacity) this.lastSource.clear();
      this.lastSource.set(deviceUuid, { source, at: now, warned: 0 });
      return false;
    }
    const shared =
      last.source !== source &&
      now - last.at < SHARED_KEY_WINDOW_MS &&
      now - last.warned >= SHARED_KEY_WINDOW_MS;
    last.source = source;
    last.at = now;
    if (shared) last.warned = now;
    return shared;
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
    this.unknown.clear();
  }
}
