import { describe, expect, it } from 'vitest';
import { reasonNow, reasonsNow, thresholdReason } from './alert-reasons.js';

describe('a heat alert’s threshold reason', () => {
  const critical90 = thresholdReason('collar temperature 95.0°F', 'critical', 90);

  it('reads as written while the owner’s threshold is the same', () => {
    expect(reasonNow(critical90, { warningF: 85, criticalF: 90 })).toBe(
      'collar temperature 95.0°F is at or above the critical threshold of 90°F',
    );
  });

  it('says which threshold applied at the time once the owner has changed it', () => {
    expect(reasonNow(critical90, { warningF: 85, criticalF: 105 })).toBe(
      'collar temperature 95.0°F was at or above the critical threshold of 90°F at the time (it is 105°F now)',
    );
    expect(
      reasonNow(thresholdReason('heat index 101.2°F', 'critical', 100.5), {
        warningF: 85,
        criticalF: 105,
      }),
    ).toBe(
      'heat index 101.2°F was at or above the critical threshold of 100.5°F at the time (it is 105°F now)',
    );
  });

  it('keeps the unit a reason was written in', () => {
    const celsius = thresholdReason('collar temperature 35.0°C', 'critical', 90, 'C');
    expect(celsius).toBe(
      'collar temperature 35.0°C is at or above the critical threshold of 32.2°C (90°F)',
    );
    expect(reasonNow(celsius, { warningF: 85, criticalF: 90 })).toBe(celsius);
    expect(reasonNow(celsius, { warningF: 85, criticalF: 105 })).toBe(
      'collar temperature 35.0°C was at or above the critical threshold of 32.2°C (90°F) at the time (it is 40.6°C (105°F) now)',
    );
  });

  it('compares a warning reason with the warning threshold, and leaves other reasons alone', () => {
    const warning = thresholdReason('collar temperature 88.0°F', 'warning', 85);
    const model = 'exercise in 27 °C heat for 25 min';
    expect(reasonsNow([warning, model], { warningF: 85, criticalF: 110 })).toEqual([
      warning,
      model,
    ]);
    expect(reasonsNow([warning], { warningF: 80, criticalF: 105 })).toEqual([
      'collar temperature 88.0°F was at or above the warning threshold of 85°F at the time (it is 80°F now)',
    ]);
  });
});
