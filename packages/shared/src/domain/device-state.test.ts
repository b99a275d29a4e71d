import { describe, expect, it } from 'vitest';
import {
  adminFilters,
  customerLabel,
  defaultDeviceName,
  isCustomerDeviceType,
  matchesAdminFilter,
  nextRegistrationStatus,
  statesAllowing,
  statusAfterRelease,
  type RegistrationEvent,
  type RegistrationStatus,
} from './device-state.js';

const now = Date.parse('2026-06-01T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('registration transitions', () => {
  const table: [RegistrationStatus, RegistrationEvent, RegistrationStatus | null][] = [
    ['unregistered', 'adopt', 'assigned'],
    ['unassigned', 'adopt', null],
    ['assigned', 'adopt', null],
    ['active', 'adopt', null],
    ['unassigned', 'claim', 'assigned'],
    ['unregistered', 'claim', null],
    ['assigned', 'claim', null],
    ['active', 'claim', null],
    ['unassigned', 'admin-assign', 'assigned'],
    ['assigned', 'admin-assign', null],
    ['unregistered', 'admin-assign', null],
    ['assigned', 'release', 'unassigned'],
    ['active', 'release', 'unassigned'],
    ['unregistered', 'release', null],
    ['unassigned', 'release', null],
    ['assigned', 'data', 'active'],
    ['active', 'data', 'active'],
    ['unassigned', 'data', null],
    ['unregistered', 'data', null],
  ];
  it.each(table)('%s --%s--> %s', (from, event, to) => {
    expect(nextRegistrationStatus(from, event)).toBe(to);
  });

  it('only an unassigned collar can be claimed', () => {
    expect(statesAllowing('claim')).toEqual(['unassigned']);
    expect(statesAllowing('admin-assign')).toEqual(['unassigned']);
    expect(statesAllowing('release')).toEqual(['assigned', 'active']);
  });
});

describe('release', () => {
  it('puts a collar back to inactive unless an admin marked it for maintenance', () => {
    expect(statusAfterRelease('active')).toBe('inactive');
    expect(statusAfterRelease('offline')).toBe('inactive');
    expect(statusAfterRelease('inactive')).toBe('inactive');
    expect(statusAfterRelease('maintenance')).toBe('maintenance');
  });
  it('names a released or pre-populated device after its Device ID', () => {
    expect(defaultDeviceName('PET-AB12')).toBe('Device PET-AB12');
  });
});

describe('customer labels', () => {
  it('calls an assigned collar registered', () => {
    expect(customerLabel({ registration_status: 'assigned', status: 'inactive' })).toBe(
      'registered',
    );
  });
  it('calls an active collar active while its status is active, else inactive', () => {
    expect(customerLabel({ registration_status: 'active', status: 'active' })).toBe('active');
    expect(customerLabel({ registration_status: 'active', status: 'offline' })).toBe('inactive');
    expect(customerLabel({ registration_status: 'active', status: 'maintenance' })).toBe(
      'inactive',
    );
    expect(customerLabel({ registration_status: 'active', status: 'inactive' })).toBe('inactive');
  });
  it('calls a fallback device unregistered', () => {
    expect(customerLabel({ registration_status: 'unregistered', status: 'inactive' })).toBe(
      'unregistered',
    );
  });
});

describe('admin filter', () => {
  it('sorts devices by ownership and data', () => {
    expect(adminFilters({ registration_status: 'unassigned', last_seen: null }, now)).toEqual([
      'unassigned',
    ]);
    expect(adminFilters({ registration_status: 'assigned', last_seen: ago(1000) }, now)).toEqual([
      'assigned',
    ]);
    expect(adminFilters({ registration_status: 'active', last_seen: ago(1000) }, now)).toEqual([
      'active',
    ]);
  });
  it('counts a customer’s unregistered device as assigned', () => {
    expect(
      matchesAdminFilter({ registration_status: 'unregistered', last_seen: null }, 'assigned', now),
    ).toBe(true);
    expect(
      matchesAdminFilter(
        { registration_status: 'unregistered', last_seen: null },
        'unassigned',
        now,
      ),
    ).toBe(false);
  });
  it('shows an owned device offline when never seen or silent for more than 5 minutes', () => {
    expect(adminFilters({ registration_status: 'assigned', last_seen: null }, now)).toEqual([
      'assigned',
      'offline',
    ]);
    expect(adminFilters({ registration_status: 'active', last_seen: ago(300_001) }, now)).toEqual([
      'active',
      'offline',
    ]);
    expect(
      matchesAdminFilter(
        { registration_status: 'active', last_seen: ago(300_000) },
        'offline',
        now,
      ),
    ).toBe(false);
  });
  it('never shows an unowned device offline', () => {
    expect(
      matchesAdminFilter({ registration_status: 'unassigned', last_seen: null }, 'offline', now),
    ).toBe(false);
  });
});

describe('device types', () => {
  it('lets customers use collars only', () => {
    expect(isCustomerDeviceType('collar')).toBe(true);
    expect(isCustomerDeviceType('vest')).toBe(false);
    expect(isCustomerDeviceType('harness')).toBe(false);
    expect(isCustomerDeviceType('tracker')).toBe(false);
  });
});
