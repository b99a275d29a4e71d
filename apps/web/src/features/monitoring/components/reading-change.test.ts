import { describe, expect, it } from 'vitest';
import type { VitalsStatus } from '@pawguard/shared';
import { makeDevice } from '@/testing/devices';
import { changedFields, NOTHING_SHOWN, nextShownReadings } from './reading-change';

const vitals = (
  temperature: number | null,
  humidity: number | null,
  status: VitalsStatus | null,
) => ({
  temperature_celsius: temperature,
  humidity_percent: humidity,
  vitals_status: status,
  heart_rate: null,
  activity_level: null,
});

describe('a reading counts as changed (spec section 4)', () => {
  it('when temperature or humidity moves by more than 0.1', () => {
    expect(changedFields(vitals(25, 50, 'SAFE'), vitals(25.2, 50, 'SAFE'))).toEqual([
      'temperature',
    ]);
    expect(changedFields(vitals(25, 50, 'SAFE'), vitals(25, 49.8, 'SAFE'))).toEqual(['humidity']);
  });

  it('not when they move by 0.1 or less (floating point included)', () => {
    expect(changedFields(vitals(25, 50, 'SAFE'), vitals(25.1, 49.9, 'SAFE'))).toEqual([]);
    expect(changedFields(vitals(0.2, 0.3, 'SAFE'), vitals(0.3, 0.2, 'SAFE'))).toEqual([]);
    expect(changedFields(vitals(25, 50, 'SAFE'), vitals(25.05, 50.05, 'SAFE'))).toEqual([]);
  });

  it('when the status changes, whatever the values', () => {
    expect(changedFields(vitals(25, 50, 'SAFE'), vitals(25, 50, 'WARNING'))).toEqual(['status']);
  });

  it('when the first values arrive', () => {
    expect(changedFields(vitals(null, null, null), vitals(25, 50, 'SAFE'))).toEqual([
      'temperature',
      'humidity',
      'status',
    ]);
  });
});

describe('nextShownReadings', () => {
  const device = makeDevice({
    temperature_celsius: 25,
    humidity_percent: 50,
    vitals_status: 'SAFE',
  });

  it('shows the first values without a highlight, and sets the last-updated time', () => {
    const shown = nextShownReadings(NOTHING_SHOWN, [device], 1000);
    expect(shown.lastUpdated).toBe(1000);
    expect(shown.byDevice.get(device.id)).toMatchObject({
      temperature_celsius: 25,
      changed: [],
      version: 0,
    });
  });

  it('takes a changed reading: new values, a highlight and a new last-updated time', () => {
    const first = nextShownReadings(NOTHING_SHOWN, [device], 1000);
    const next = nextShownReadings(
      first,
      [{ ...device, temperature_celsius: 26, heart_rate: 90 }],
      2000,
    );
    expect(next.lastUpdated).toBe(2000);
    expect(next.byDevice.get(device.id)).toMatchObject({
      temperature_celsius: 26,
      heart_rate: 90,
      changed: ['temperature'],
      version: 1,
    });
  });

  it('leaves an unchanged reading out: neither the values nor the last-updated time move', () => {
    const first = nextShownReadings(NOTHING_SHOWN, [device], 1000);
    const next = nextShownReadings(
      first,
      [{ ...device, temperature_celsius: 25.08, heart_rate: 120 }],
      2000,
    );
    expect(next.lastUpdated).toBe(1000);
    expect(next.byDevice.get(device.id)).toBe(first.byDevice.get(device.id));
  });
});
