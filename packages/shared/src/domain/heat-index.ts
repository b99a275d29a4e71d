/**
 * The NOAA / National Weather Service heat index (°F) from air temperature (°F) and relative
 * humidity (%): Steadman's simple formula below 80 °F, else the Rothfusz regression with the
 * NWS adjustments for very dry and very humid air.
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
