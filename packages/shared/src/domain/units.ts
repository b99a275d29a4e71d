/** °C → °F (F = C × 9/5 + 32). */
export const celsiusToFahrenheit = (c: number): number => (c * 9) / 5 + 32;
export const fahrenheitToCelsius = (f: number): number => ((f - 32) * 5) / 9;

/** One decimal, as every temperature on screen and in mail is shown. */
export const formatOneDecimal = (value: number): string => (Math.round(value * 10) / 10).toFixed(1);
export const formatCelsius = (c: number): string => `${formatOneDecimal(c)}°C`;
export const formatFahrenheit = (f: number): string => `${formatOneDecimal(f)}°F`;
