/** °C → °F (F = C × 9/5 + 32). */
export const celsiusToFahrenheit = (c: number): number => (c * 9) / 5 + 32;
export const fahrenheitToCelsius = (f: number): number => ((f - 32) * 5) / 9;

/** One decimal, as every temperature on screen and in mail is shown. */
export const formatOneDecimal = (value: number): string => (Math.round(value * 10) / 10).toFixed(1);
export const formatCelsius = (c: number): string => `${formatOneDecimal(c)}°C`;
export const formatFahrenheit = (f: number): string => `${formatOneDecimal(f)}°F`;

/**
 * Display preferences (DESIGN §3 "Display"): which temperature unit comes first and which
 * weight unit pets are shown in, per account; null on the account means "the browser's
 * default" (defaultUnitsForLocale). Both temperature units are always shown.
 */
export const TEMPERATURE_UNITS = ['F', 'C'] as const;
export type TemperatureUnit = (typeof TEMPERATURE_UNITS)[number];
export const WEIGHT_UNITS = ['lbs', 'kg'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/**
 * A temperature given in °C, in both units, one decimal each, the preferred one first:
 * '31.2°C / 88.2°F' (C) or '88.2°F / 31.2°C' (F).
 */
export function temperatureParts(
  celsius: number,
  unit: TemperatureUnit,
): { first: string; second: string } {
  const c = formatCelsius(celsius);
  const f = formatFahrenheit(celsiusToFahrenheit(celsius));
  return unit === 'C' ? { first: c, second: f } : { first: f, second: c };
}

/** See temperatureParts: '31.2°C / 88.2°F' or '88.2°F / 31.2°C'. */
export function formatTemperature(celsius: number, unit: TemperatureUnit): string {
  const { first, second } = temperatureParts(celsius, unit);
  return `${first} / ${second}`;
}

/** A temperature given in °F (a threshold), as formatTemperature shows it. */
export const formatTemperatureF = (fahrenheit: number, unit: TemperatureUnit): string =>
  formatTemperature(fahrenheitToCelsius(fahrenheit), unit);

/** Pounds in a kilogram (the international avoirdupois pound, exactly 0.45359237 kg). */
export const KG_PER_LB = 0.45359237;
export const lbsToKg = (lbs: number): number => lbs * KG_PER_LB;
export const kgToLbs = (kg: number): number => kg / KG_PER_LB;

/** Up to one decimal, without a trailing '.0': 22.5 → '22.5', 10 → '10'. */
const weightNumber = (value: number): string => String(Math.round(value * 10) / 10);

/** A weight stored in lbs, in one unit: '22.5 lbs' or '10.2 kg'. */
export const formatWeightIn = (lbs: number, unit: WeightUnit): string =>
  unit === 'kg' ? `${weightNumber(lbsToKg(lbs))} kg` : `${weightNumber(lbs)} lbs`;

/** A weight stored in lbs, the preferred unit first and the other beside it: '10.2 kg (22.5 lbs)'. */
export const formatWeight = (lbs: number, unit: WeightUnit): string =>
  `${formatWeightIn(lbs, unit)} (${formatWeightIn(lbs, unit === 'kg' ? 'lbs' : 'kg')})`;

/** A weight stored in lbs as the number a form field in `unit` shows ('' when none). */
export const weightFieldValue = (lbs: number | null, unit: WeightUnit): string =>
  lbs === null ? '' : weightNumber(unit === 'kg' ? lbsToKg(lbs) : lbs);

/** A weight typed in `unit`, as the lbs the API stores (two decimals, so 10 kg comes back as 10). */
export const weightToLbs = (value: number, unit: WeightUnit): number =>
  unit === 'kg' ? Math.round(kgToLbs(value) * 100) / 100 : value;

/**
 * Regions that measure in °F and pounds (the United States, Liberia, Myanmar); a locale
 * without a region counts as its most likely one ('en' → US).
 */
const IMPERIAL_REGIONS = new Set(['US', 'LR', 'MM']);

/** The browser's default units for a locale tag ('en-US' → °F and lbs, 'en-GB' → °C and kg). */
export function defaultUnitsForLocale(locale: string | null | undefined): {
  temperature_unit: TemperatureUnit;
  weight_unit: WeightUnit;
} {
  let region: string | undefined;
  try {
    region = locale ? new Intl.Locale(locale).maximize().region : undefined;
  } catch {
    region = undefined;
  }
  return region !== undefined && IMPERIAL_REGIONS.has(region)
    ? { temperature_unit: 'F', weight_unit: 'lbs' }
    : { temperature_unit: 'C', weight_unit: 'kg' };
}

/**
 * The unit an account's temperatures lead with where no browser can say (mail, notification
 * texts): its own, else °F, the unit of the spec's thresholds. The web stores the browser's
 * default on the account at sign-up or the first sign-in, so this fallback is rare.
 */
export const temperatureUnitOf = (unit: TemperatureUnit | null | undefined): TemperatureUnit =>
  unit ?? 'F';

/** A temperature in °C as a number in `unit` (charts draw in the preferred unit). */
export const celsiusIn = (celsius: number, unit: TemperatureUnit): number =>
  unit === 'C' ? celsius : celsiusToFahrenheit(celsius);
/** A temperature in °F (a threshold) as a number in `unit`. */
export const fahrenheitIn = (fahrenheit: number, unit: TemperatureUnit): number =>
  unit === 'F' ? fahrenheit : fahrenheitToCelsius(fahrenheit);
/** A number already in `unit` (a chart's value), shown as formatTemperature shows it. */
export const formatTemperatureIn = (value: number, unit: TemperatureUnit): string =>
  formatTemperature(unit === 'C' ? value : fahrenheitToCelsius(value), unit);
