import { describe, expect, it } from 'vitest';
import {
  celsiusToFahrenheit,
  fahrenheitToCelsius,
  formatCelsius,
  formatFahrenheit,
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
