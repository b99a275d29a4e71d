import type { Device, Dog } from '@pawguard/shared';

let seq = 0;
const uuid = () => `10000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

export function makePet(overrides: Partial<Dog> = {}): Dog {
  return {
    id: uuid(),
    user_id: '20000000-0000-4000-8000-000000000001',
    name: 'Biscuit',
    breed: 'Beagle',
    age: 3,
    weight: 22.5,
    medical_info: null,
    emergency_contact: null,
    created_at: '2025-06-02T10:00:00.000Z',
    updated_at: '2025-06-02T10:00:00.000Z',
    ...overrides,
  };
}

export function makeDevice(overrides: Partial<Device> = {}): Device {
  const n = ++seq;
  return {
    id: uuid(),
    device_id: `PET-${String(n).padStart(4, '0').slice(-4)}`,
    device_address: null,
    device_name: `Collar ${n}`,
    device_type: 'collar',
    status: 'inactive',
    registration_status: 'assigned',
    user_id: '20000000-0000-4000-8000-000000000001',
    dog_id: null,
    dog_name: null,
    owner_name: 'Riley Owner',
    firmware_version: null,
    battery_level: null,
    last_seen: null,
    created_at: '2025-06-03T10:00:00.000Z',
    updated_at: '2025-06-03T10:00:00.000Z',
    temperature_celsius: null,
    humidity_percent: null,
    heart_rate: null,
    activity_level: null,
    vitals_status: null,
    vitals_recorded_at: null,
    ...overrides,
  };
}
