import { describe, expect, it } from 'vitest';
import { thresholdAlerts, storedLevel } from './replay.js';
import type { SimReading } from './life.js';

const at = (minute: number) => Date.UTC(2026, 6, 6) + minute * 60_000;
const reading = (minute: number, temperature: number, humidity = 20): SimReading => ({
  timestamp: at(minute),
  temperature,
  humidity,
  battery: 80,
});

describe('what the thresholds alone raise', () => {
  it('opens at the warning threshold, escalates at the critical one and resolves below both', () => {
    // 85 °F = 29.4 °C, 105 °F = 40.6 °C (the app's defaults); dry air keeps the heat index low.
    const alerts = thresholdAlerts([
      reading(0, 25),
      reading(1, 30),
      reading(2, 41),
      reading(3, 35),
      reading(4, 25),
      reading(5, 31),
    ]);
    expect(alerts).toEqual([
      { openedAt: at(1), level: 'CRITICAL', resolvedAt: at(4) },
      { openedAt: at(5), level: 'WARNING', resolvedAt: null },
    ]);
  });

  it('holds an alert while the collar hovers just under the threshold (1 °F hysteresis)', () => {
    // 29.5 °C is 85.1 °F; 29.2 °C is 84.6 °F, within 1 °F of the threshold.
    const alerts = thresholdAlerts([reading(0, 29.5), reading(1, 29.2), reading(2, 29.5)]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.resolvedAt).toBeNull();
  });

  it('takes the higher of the thresholds’ status and the model’s band as the level', () => {
    expect(storedLevel({ status: 'SAFE', risk_band: 'DANGER' })).toBe('DANGER');
    expect(storedLevel({ status: 'CRITICAL', risk_band: 'WARNING' })).toBe('CRITICAL');
    expect(storedLevel({ status: 'SAFE', risk_band: null })).toBe('SAFE');
    expect(storedLevel({ vitals_status: 'WARNING', threshold_status: 'SAFE' })).toBe('WARNING');
  });
});
