import { describe, expect, it } from 'vitest';
import { makeDevice } from '@/testing/devices';
import { filterDevices } from './filter-devices';

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const free = makeDevice({
  device_id: 'PET-FREE',
  registration_status: 'unassigned',
  owner_name: null,
});
const fresh = makeDevice({
  device_id: 'PET-LIVE',
  registration_status: 'active',
  last_seen: ago(60_000),
  dog_name: 'Pepper',
});
const stale = makeDevice({
  device_id: 'PET-GONE',
  registration_status: 'active',
  last_seen: ago(600_000),
  owner_name: 'Sam Walker',
});
const waiting = makeDevice({
  device_id: 'PET-WAIT',
  registration_status: 'assigned',
  device_name: 'Porch collar',
  device_address: 'AA:BB:CC:11:22:33',
});
const all = [free, fresh, stale, waiting];
const idsOf = (list: { device_id: string }[]) => list.map((d) => d.device_id);

describe('filterDevices (All Devices)', () => {
  it('applies the shared admin filter: unassigned, assigned, active, offline', () => {
    expect(idsOf(filterDevices(all, '', 'all', NOW))).toEqual([
      'PET-FREE',
      'PET-LIVE',
      'PET-GONE',
      'PET-WAIT',
    ]);
    expect(idsOf(filterDevices(all, '', 'unassigned', NOW))).toEqual(['PET-FREE']);
    expect(idsOf(filterDevices(all, '', 'assigned', NOW))).toEqual(['PET-WAIT']);
    expect(idsOf(filterDevices(all, '', 'active', NOW))).toEqual(['PET-LIVE', 'PET-GONE']);
    expect(idsOf(filterDevices(all, '', 'offline', NOW))).toEqual(['PET-GONE', 'PET-WAIT']);
  });

  it('searches Device ID, MAC, name, owner and pet, ignoring case', () => {
    expect(idsOf(filterDevices(all, 'pet-free', 'all', NOW))).toEqual(['PET-FREE']);
    expect(idsOf(filterDevices(all, 'porch', 'all', NOW))).toEqual(['PET-WAIT']);
    expect(idsOf(filterDevices(all, 'sam', 'all', NOW))).toEqual(['PET-GONE']);
    expect(idsOf(filterDevices(all, 'PEPPER', 'all', NOW))).toEqual(['PET-LIVE']);
    expect(idsOf(filterDevices(all, 'pepper', 'offline', NOW))).toEqual([]);
    expect(idsOf(filterDevices(all, 'cc:11:22', 'all', NOW))).toEqual(['PET-WAIT']);
  });
});
