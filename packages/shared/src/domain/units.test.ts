import { describe, expect, it } from 'vitest';
import {
  celsiusToFahrenheit,
  fahrenheitToCelsius,
  formatCelsius,
  formatFahrenheit,
  defaultUnitsForLocale,
  formatTemperature,
  formatTemperatureF,
  formatWeight,
  formatWeightIn,
  weightFieldValue,
  weightToLbs,
} from './units.js';

describe('temperature units', () => {
  it('converts °C to °F as C × 9/5 + 32', () => {
    expect(celsiusToFahrenheit(0)).toBe(32);
    expect(celsiusToFahrenheit(100)).toBe(212);
    expect(celsiusToFahrenheit(37)).toBeCloseTo(98.6, 10);
  });
  it('converts back from °F to °C', () => {
    expect(fahrenheitToCelsius(105)).toBeCloseTo(40.5556, 4);
  });
  it('shows one decimal', () => {
    expect(formatCelsius(29.44)).toBe('29.4°C');
    expect(formatFahrenheit(85)).toBe('85.0°F');
    expect(formatFahrenheit(celsiusToFahrenheit(29.45))).toBe('85.0°F');
  });
});

describe('a temperature in the preferred unit first', () => {
  it('puts °C first for a °C reader and °F first for a °F reader, one decimal each', () => {
    expect(formatTemperature(31.2, 'C')).toBe('31.2°C / 88.2°F');
    expect(formatTemperature(31.2, 'F')).toBe('88.2°F / 31.2°C');
  });
  it('shows a °F threshold the same way', () => {
    expect(formatTemperatureF(105, 'F')).toBe('105.0°F / 40.6°C');
    expect(formatTemperatureF(85, 'C')).toBe('29.4°C / 85.0°F');
  });
});

describe('weights, stored in lbs', () => {
  it('shows the preferred unit with the other beside it', () => {
    expect(formatWeight(22.5, 'lbs')).toBe('22.5 lbs (10.2 kg)');
    expect(formatWeight(22.5, 'kg')).toBe('10.2 kg (22.5 lbs)');
    expect(formatWeightIn(70, 'lbs')).toBe('70 lbs');
  });
  it('turns a weight typed in kg into lbs and back without drifting', () => {
    expect(weightToLbs(10, 'kg')).toBe(22.05);
    expect(weightFieldValue(weightToLbs(10, 'kg'), 'kg')).toBe('10');
    expect(weightToLbs(22.5, 'lbs')).toBe(22.5);
    expect(weightFieldValue(null, 'kg')).toBe('');
  });
});

describe('the browser default units', () => {
  it('is °F and lbs where those are the everyday units', () => {
    for (const locale of ['en-US', 'en', 'es-US', 'en-LR', 'my-MM'])
      expect(defaultUnitsForLocale(locale), locale).toEqual({
        temperature_unit: 'F',
        weight_unit: 'lbs',
      });
  });
  it('is °C and kg elsewhere, and when the locale is unknown', () => {
    for (const locale of ['en-GB', 'de-DE', 'fr', 'en-CA', '', undefined, 'not a locale'])
      expect(defaultUnitsForLocale(locale), String(locale)).toEqual({
        temperature_unit: 'C',
        weight_unit: 'kg',
      });
  });
});
