/**
 * What the device services tell, once the transaction that made a change has committed (never
 * for one rolled back): a device's credentials changed or it may no longer post, or it changed
 * otherwise. Whatever accepts collar readings (HTTP ingest, the MQTT listener) drops what it
 * kept about the device, and its owners' screens refetch it (device-change-effects.ts).
 *
 * Reasons:
 * - released:     its owner gave it back to the fleet (the key stays; the owner is gone)
 * - removed:      an admin deleted it (no key any more)
 * - user_deleted: its owner's account was deleted (released, or removed if unregistered)
 * - rekeyed:      pre-populate adopted a customer's unregistered device and gave it a key
 * - rotated:      an admin issued a new key; the old one is refused from now on
 */
export type CredentialsChangeReason =
  'released' | 'removed' | 'rekeyed' | 'rotated' | 'user_deleted';

export interface CredentialsChange {
  /** The device's UUID. */
  id: string;
  /** The Device ID printed on it, 'PET-XXXX' (the MQTT username and topic). */
  device_id: string;
  reason: CredentialsChangeReason;
  /** Who held it before the change (null when nobody did). */
  owner_id?: string | null;
}

export interface DeviceNews {
  /** Call only once the change is committed. */
  credentialsChanged(changes: CredentialsChange | CredentialsChange[]): void;
  /** Call only once the change is committed; `owners` are who held it before and after. */
  deviceUpdated(id: string, ...owners: (string | null | undefined)[]): void;
}
