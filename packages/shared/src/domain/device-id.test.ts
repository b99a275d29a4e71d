import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEVICE_ID_PATTERN,
  generateDeviceId,
  normalizeDeviceId,
  normalizeMac,
} from './device-id.js';

describe('Device IDs', () => {
  it("generates 'PET-' plus four uppercase alphanumerics", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), (draws) => {
        let i = 0;
        const id = generateDeviceId((n) => draws[i++]! % n);
        expect(id).toMatch(DEVICE_ID_PATTERN);
      }),
    );
  });
  it('is case-insensitive and stored upper case', () => {
    expect(normalizeDeviceId(' pet-ab12 ')).toBe('PET-AB12');
  });
  it('refuses anything else', () => {
    for (const bad of ['PET-AB1', 'PET-AB123', 'PAT-AB12', 'PET_AB12', 'PET-AB1!', '']) {
      expect(normalizeDeviceId(bad)).toBeNull();
    }
  });
});

describe('MAC addresses', () => {
  it("accepts any case with ':' or '-' or no separators, stored as AA:BB:CC:DD:EE:FF", () => {
    expect(normalizeMac('aa:bb:cc:dd:ee:0f')).toBe('AA:BB:CC:DD:EE:0F');
    expect(normalizeMac('AA-BB-CC-DD-EE-0F')).toBe('AA:BB:CC:DD:EE:0F');
    expect(normalizeMac('aabbccddee0f')).toBe('AA:BB:CC:DD:EE:0F');
  });
  it('refuses mixed separators, wrong lengths and non-hex', () => {
    for (const bad of [
      'AA:BB-CC:DD:EE:0F',
      'AA:BB:CC:DD:EE',
      'GG:BB:CC:DD:EE:0F',
      'aabbccddee0',
      '',
    ]) {
      expect(normalizeMac(bad)).toBeNull();
    }
  });
});
