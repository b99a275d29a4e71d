/**
 * The hook for whatever accepts collar readings (HTTP ingest, the MQTT listener): it learns
 * here that a device's credentials changed or that it may no longer post, and drops whatever
 * it cached about that device (an authenticated MQTT connection, a key look-up).
 *
 *   container.deviceLifecycle.onCredentialsChanged(({ id, device_id, reason }) => { … });
 *
 * Reasons:
 * - released:     its owner gave it back to the fleet (the key stays; the owner is gone)
 * - removed:      an admin deleted it (no key any more)
 * - user_deleted: its owner's account was deleted (released, or removed if unregistered)
 * - rekeyed:      pre-populate adopted a customer's unregistered device and gave it a key
 * - rotated:      an admin issued a new key; the old one is refused from now on
 *
 * Listeners run after the transaction that made the change has committed, never for a change
 * that was rolled back. A listener that throws is logged and does not affect the others or
 * the request.
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

/** A device changed otherwise (claimed, assigned, edited): its owners' screens refetch it. */
export interface DeviceUpdate {
  id: string;
  owners: string[];
}

export type CredentialsListener = (change: CredentialsChange) => void;

export class DeviceLifecycle {
  private readonly listeners: CredentialsListener[] = [];
  private readonly updateListeners: ((update: DeviceUpdate) => void)[] = [];

  onDeviceUpdated(listener: (update: DeviceUpdate) => void): void {
    this.updateListeners.push(listener);
  }

  /** Call only once the change is committed. */
  deviceUpdated(id: string, ...owners: (string | null | undefined)[]): void {
    this.tell(this.updateListeners, {
      id,
      owners: [...new Set(owners.filter((o): o is string => !!o))],
    });
  }

  /** Every listener hears it; one that throws is logged and the others still hear it. */
  private tell<T>(listeners: readonly ((value: T) => void)[], value: T): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  /** Registers a listener; returns a function that removes it again. */
  onCredentialsChanged(listener: CredentialsListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Call only once the change is committed. */
  credentialsChanged(changes: CredentialsChange | CredentialsChange[]): void {
    for (const change of Array.isArray(changes) ? changes : [changes])
      this.tell(this.listeners, change);
  }
}
