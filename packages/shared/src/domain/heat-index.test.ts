import { describe, expect, it } from 'vitest';
import { HEAT_INDEX_EXTREME_F, heatIndexF, heatIndexQuotable } from './heat-index.js';

// Values from the NWS heat index table (air temperature °F, relative humidity %). The Rothfusz
// regression is within ±1.3 °F of Steadman's values it was fitted on.
describe('heatIndexF', () => {
  it.each(
    [
      [80, 40, 80],
      [80, 80, 84],
      [84, 60, 88],
      [86, 90, 105],
      [88, 50, 91],
      [90, 50, 95],
      [90, 60, 100],
      [90, 70, 106],
      [92, 40, 94],
      [94, 55, 106],
      [100, 40, 109],
      [100, 50, 118],
      [104, 55, 137],
    ].map(([t, rh, hi]) => ({ t: t!, rh: rh!, hi: hi! })),
  )('$t °F at $rh % humidity feels like $hi °F', ({ t, rh, hi }) => {
    expect(Math.abs(heatIndexF(t, rh) - hi)).toBeLessThanOrEqual(1.5);
  });

  it("is Steadman's simple formula below 80 °F: about the air temperature on a mild day", () => {
    expect(heatIndexF(70, 50)).toBeCloseTo(0.5 * (70 + 0.5 * (70 + 61 + 2 * 1.2 + 50 * 0.094)), 6);
    expect(Math.abs(heatIndexF(60, 50) - 60)).toBeLessThan(2);
  });

  it('applies the dry-air adjustment below 13 % and the humid one above 85 % (80–87 °F)', () => {
    const rothfusz = (t: number, rh: number) =>
      -42.379 +
      2.04901523 * t +
      10.14333127 * rh -
      0.22475541 * t * rh -
      0.00683783 * t * t -
      0.05481717 * rh * rh +
      0.00122874 * t * t * rh +
      0.00085282 * t * rh * rh -
      0.00000199 * t * t * rh * rh;
    expect(heatIndexF(95, 5)).toBeCloseTo(rothfusz(95, 5) - 2, 6);
    expect(heatIndexF(85, 95)).toBeCloseTo(rothfusz(85, 95) + 0.4, 6);
  });
});

describe('heatIndexQuotable', () => {
  it('quotes a number only inside the published range', () => {
    expect(heatIndexQuotable(100, 50)).toBe(true); // 118 °F
    expect(heatIndexQuotable(104, 50)).toBe(false); // 131 °F: "extreme danger" and beyond
    expect(heatIndexF(104, 50)).toBeGreaterThanOrEqual(HEAT_INDEX_EXTREME_F);
    expect(heatIndexQuotable(112, 5)).toBe(false); // air hotter than the table
    expect(heatIndexQuotable(70, 50)).toBe(true);
  });
});
