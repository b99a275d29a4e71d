import { matchesAdminFilter, type AdminFilter, type Device } from '@pawguard/shared';

export type DeviceFilter = 'all' | AdminFilter;

/** Search by Device ID, MAC, name, owner or pet (case-insensitive), then the status filter. */
export function filterDevices(
  devices: readonly Device[],
  search: string,
  filter: DeviceFilter,
  now = Date.now(),
): Device[] {
  const q = search.trim().toLowerCase();
  return devices.filter((d) => {
    if (filter !== 'all' && !matchesAdminFilter(d, filter, now)) return false;
    if (q === '') return true;
    return [d.device_id, d.device_address, d.device_name, d.owner_name, d.dog_name].some((v) =>
      v?.toLowerCase().includes(q),
    );
  });
}
