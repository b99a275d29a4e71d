import { isOnline } from './freshness.js';

/**
 * The life of a collar (DESIGN §3 "Device states"), as pure rules the server enforces and
 * the screens display.
 *
 * Stored `registration_status`:
 * - unregistered: a customer created it through the fallback; it has no key yet
 * - unassigned:   an admin pre-populated it; it has a key and no owner
 * - assigned:     it has an owner (on one of their pets, or on none) and has sent no data
 * - active:       it has sent data
 */
export const REGISTRATION_STATUSES = ['unregistered', 'unassigned', 'assigned', 'active'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** `status`: inactive until the first data; offline while the offline alert is open. */
export const DEVICE_STATUSES = ['active', 'inactive', 'maintenance', 'offline'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const INITIAL_DEVICE_STATUS: DeviceStatus = 'inactive';

export const DEVICE_TYPES = ['collar', 'vest', 'harness', 'tracker'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
/** Customers may only use collars; admins may record any type. */
export const CUSTOMER_DEVICE_TYPES: readonly DeviceType[] = ['collar'];

export function isCustomerDeviceType(type: DeviceType): boolean {
  return CUSTOMER_DEVICE_TYPES.includes(type);
}

/** The name a pre-populated (or released) device carries: 'Device PET-XXXX'. */
export function defaultDeviceName(deviceId: string): string {
  return `Device ${deviceId}`;
}

/**
 * What can happen to a device's registration:
 * - adopt:        an admin pre-populates the Device ID of a customer's unregistered device
 * - claim:        a customer takes an unassigned collar (assign by Device ID, or auto-assign)
 * - admin-assign: an admin assigns an unassigned device to a user
 * - release:      the owner gives the collar back, or the owner's account is deleted
 * - data:         the collar sends a reading
 */
export type RegistrationEvent = 'adopt' | 'claim' | 'admin-assign' | 'release' | 'data';

const TRANSITIONS: Record<
  RegistrationEvent,
  Partial<Record<RegistrationStatus, RegistrationStatus>>
> = {
  adopt: { unregistered: 'assigned' },
  claim: { unassigned: 'assigned' },
  'admin-assign': { unassigned: 'assigned' },
  // An unregistered device has no key and nothing to go back to: it is removed instead.
  release: { assigned: 'unassigned', active: 'unassigned' },
  data: { assigned: 'active', active: 'active' },
};

/** The state after `event`, or null when the event is not allowed in `current`. */
export function nextRegistrationStatus(
  current: RegistrationStatus,
  event: RegistrationEvent,
): RegistrationStatus | null {
  return TRANSITIONS[event][current] ?? null;
}

/**
 * The states in which `event` is allowed: what a conditional UPDATE must find, so the
 * database applies the same rule as this table (only an unassigned collar can be claimed).
 */
export function statesAllowing(event: RegistrationEvent): RegistrationStatus[] {
  return REGISTRATION_STATUSES.filter((s) => nextRegistrationStatus(s, event) !== null);
}

/** True when the device belongs to a user (whether or not it has a key or data). */
export function hasOwnerState(current: RegistrationStatus): boolean {
  return current !== 'unassigned';
}

/**
 * A released collar keeps a maintenance mark an admin set; otherwise it waits, inactive,
 * for its next owner's first data.
 */
export function statusAfterRelease(status: DeviceStatus): DeviceStatus {
  return status === 'maintenance' ? 'maintenance' : INITIAL_DEVICE_STATUS;
}

/** Labels a customer sees: registered = assigned; inactive = active but `status` ≠ active. */
export const CUSTOMER_LABELS = ['unregistered', 'registered', 'active', 'inactive'] as const;
export type CustomerLabel = (typeof CUSTOMER_LABELS)[number];

export function customerLabel(device: {
  registration_status: RegistrationStatus;
  status: DeviceStatus;
}): CustomerLabel {
  switch (device.registration_status) {
    case 'assigned':
      return 'registered';
    case 'active':
      return device.status === 'active' ? 'active' : 'inactive';
    // A customer never owns an unassigned device; were one shown, it is not set up yet.
    case 'unassigned':
    case 'unregistered':
      return 'unregistered';
  }
}

/**
 * The All Devices filter. `assigned` means owned and without data yet — a customer's
 * unregistered device counts, since it belongs to them and cannot be claimed. `offline`
 * is an owned device not heard from within 5 minutes (or never).
 */
export const ADMIN_FILTERS = ['unassigned', 'assigned', 'active', 'offline'] as const;
export type AdminFilter = (typeof ADMIN_FILTERS)[number];

type AdminView = {
  registration_status: RegistrationStatus;
  last_seen: string | number | Date | null | undefined;
};

export function matchesAdminFilter(
  device: AdminView,
  filter: AdminFilter,
  now = Date.now(),
): boolean {
  const reg = device.registration_status;
  switch (filter) {
    case 'unassigned':
      return reg === 'unassigned';
    case 'assigned':
      return reg === 'assigned' || reg === 'unregistered';
    case 'active':
      return reg === 'active';
    case 'offline':
      return hasOwnerState(reg) && !isOnline(device.last_seen, now);
  }
}

/** Every filter a device matches (offline overlaps assigned and active). */
export function adminFilters(device: AdminView, now = Date.now()): AdminFilter[] {
  return ADMIN_FILTERS.filter((f) => matchesAdminFilter(device, f, now));
}
