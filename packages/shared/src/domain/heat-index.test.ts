import { describe, expect, it } from 'vitest';
import { heatIndexF } from './heat-index.js';

// Values from the NWS heat index table (air temperature °F, relative humidity %).
describe('heatIndexF', () => {
  it.each([
    [80, 40, 80],
    [90, 50, 95],
    [90, 70, 106],
    [100, 40, 109],
    [104, 55, 137],
    [86, 90, 105],
  ])('%s °F at %s %% feels like about %s °F', (t, rh, expected) => {
    expect(heatIndexF(t, rh)).toBeCloseTo(expected, -0.5);
  });

  it('is about the air temperature on a mild day', () => {
    expect(Math.abs(heatIndexF(70, 50) - 70)).toBeLessThan(1.5);
  });

  it('applies the dry-air adjustment below 13 % humidity', () => {
    expect(heatIndexF(100, 5)).toBeLessThan(heatIndexF(100, 13));
  });
});
