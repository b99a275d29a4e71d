/**
 * The NOAA / National Weather Service heat index (°F) from air temperature (°F) and relative
 * humidity (%), by the NWS's own algorithm: Steadman's simple formula when its result (averaged
 * with the temperature) is below 80 °F, else the Rothfusz regression with the NWS adjustments
 * for very dry and very humid air.
 */
export function heatIndexF(tempF: number, humidity: number): number {
  const rh = Math.min(100, Math.max(0, humidity));
  const simple = 0.5 * (tempF + 61 + (tempF - 68) * 1.2 + rh * 0.094);
  if ((simple + tempF) / 2 < 80) return (simple + tempF) / 2;
  let hi =
    -42.379 +
    2.04901523 * tempF +
    10.14333127 * rh -
    0.22475541 * tempF * rh -
    0.00683783 * tempF * tempF -
    0.05481717 * rh * rh +
    0.00122874 * tempF * tempF * rh +
    0.00085282 * tempF * rh * rh -
    0.00000199 * tempF * tempF * rh * rh;
  if (rh < 13 && tempF >= 80 && tempF <= 112) {
    hi -= ((13 - rh) / 4) * Math.sqrt((17 - Math.abs(tempF - 95)) / 17);
  } else if (rh > 85 && tempF >= 80 && tempF <= 87) {
    hi += ((rh - 85) / 10) * ((87 - tempF) / 5);
  }
  return hi;
}

/**
 * The range a heat index is quoted in: air up to 110 °F (the hottest of the NWS table), and a
 * heat index under 125 °F, where the NWS's "extreme danger" class begins. Beyond, the
 * regression runs past the conditions it was fitted on (Steadman's), and its numbers (a
 * "131 °F" at 104 °F and 50 %) claim a precision it does not have: "extreme heat" is said instead.
 */
export const HEAT_INDEX_MAX_AIR_F = 110;
/** What is said instead of a heat index beyond that range, everywhere one is shown. */
export const EXTREME_HEAT = 'extreme heat';
export const HEAT_INDEX_EXTREME_F = 125;

/** Whether the heat index of this air is within the range where a number is quoted. */
export function heatIndexQuotable(tempF: number, humidity: number): boolean {
  return tempF <= HEAT_INDEX_MAX_AIR_F && heatIndexF(tempF, humidity) < HEAT_INDEX_EXTREME_F;
}
