import { describe, expect, it } from 'vitest';
import { fahrenheitToCelsius } from './units.js';
import { vitalsStatus, type VitalsStatus } from './vitals-status.js';

const thresholds = { warningF: 85, criticalF: 105 };
/** A reading at `f` °F; dry air (10 %) keeps the heat index near the temperature. */
const at = (f: number, humidity = 10) => ({ temperature: fahrenheitToCelsius(f), humidity });

describe('vitalsStatus from the owner thresholds', () => {
  it.each<[number, number, VitalsStatus]>([
    [70, 10, 'SAFE'],
    [84.9, 10, 'SAFE'],
    [85, 10, 'WARNING'],
    [104.9, 10, 'WARNING'],
    [105, 10, 'CRITICAL'],
    [120, 10, 'CRITICAL'],
    // 95 °F at 60 % feels like about 114 °F: the heat index crosses the critical threshold.
    [95, 60, 'DANGER'],
    // 86 °F at 90 % feels like about 105 °F.
    [86, 95, 'DANGER'],
  ])('%s °F at %s %% humidity is %s', (f, rh, expected) => {
    expect(vitalsStatus(at(f, rh), thresholds)).toBe(expected);
  });

  it('follows other thresholds than the defaults', () => {
    expect(vitalsStatus(at(80), { warningF: 75, criticalF: 79 })).toBe('CRITICAL');
    expect(vitalsStatus(at(76), { warningF: 75, criticalF: 79 })).toBe('WARNING');
  });
});

describe('vitalsStatus hysteresis (1 °F)', () => {
  it('holds WARNING until the temperature is 1 °F below the warning threshold', () => {
    expect(vitalsStatus(at(84.5), thresholds, 'WARNING')).toBe('WARNING');
    expect(vitalsStatus(at(84.01), thresholds, 'WARNING')).toBe('WARNING');
    expect(vitalsStatus(at(84), thresholds, 'WARNING')).toBe('SAFE');
  });

  it('does not enter WARNING early from SAFE', () => {
    expect(vitalsStatus(at(84.5), thresholds, 'SAFE')).toBe('SAFE');
  });

  it('holds CRITICAL within 1 °F of the critical threshold, then falls to the level that holds', () => {
    expect(vitalsStatus(at(104.5), thresholds, 'CRITICAL')).toBe('CRITICAL');
    expect(vitalsStatus(at(103.9), thresholds, 'CRITICAL')).toBe('WARNING');
    expect(vitalsStatus(at(84.5), thresholds, 'CRITICAL')).toBe('WARNING');
    expect(vitalsStatus(at(80), thresholds, 'CRITICAL')).toBe('SAFE');
  });

  it('holds DANGER while the heat index stays within 1 °F of the critical threshold', () => {
    // 86 °F at 90 % is about 105 °F heat index; at 86 % about 102 °F.
    expect(vitalsStatus(at(86, 95), thresholds, 'SAFE')).toBe('DANGER');
    expect(vitalsStatus(at(86, 89), thresholds, 'SAFE')).toBe('WARNING');
    expect(vitalsStatus(at(86, 89.5), thresholds, 'DANGER')).toBe('DANGER');
  });

  it('escalates at once, hysteresis never delays a higher level', () => {
    expect(vitalsStatus(at(105), thresholds, 'WARNING')).toBe('CRITICAL');
  });

  it('treats an unknown previous status as SAFE', () => {
    expect(vitalsStatus(at(84.5), thresholds, 'weird' as VitalsStatus)).toBe('SAFE');
  });
});
