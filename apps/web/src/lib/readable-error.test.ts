import { describe, expect, it } from 'vitest';
import { readableError } from './readable-error';

describe('readableError', () => {
  it('names the row and the field in words a person reads', () => {
    expect(
      readableError(
        'devices.0.device_address must be a MAC address: 6 pairs of hex digits, e.g. AA:BB:CC:DD:EE:FF',
      ),
    ).toBe('Row 1: the MAC address must look like AA:BB:CC:DD:EE:FF');
    expect(
      readableError(
        'devices.2.device_id must be PET- followed by 4 letters or digits (e.g. PET-AB12)',
      ),
    ).toBe('Row 3: the Device ID must look like PET-AB12');
    expect(readableError('devices.1.device_name must be at most 50 characters')).toBe(
      'Row 2: the device name must be at most 50 characters',
    );
  });

  it('leaves other messages as they are', () => {
    expect(readableError('Device PET-AB12 is already assigned to another user.')).toBe(
      'Device PET-AB12 is already assigned to another user.',
    );
  });
});
