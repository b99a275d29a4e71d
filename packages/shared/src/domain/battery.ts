export type BatteryLevel = 'good' | 'low' | 'critical';

/** Battery bar colour: over 50 green, over 20 yellow, otherwise red. */
export function batteryLevel(percent: number): BatteryLevel {
  if (percent > 50) return 'good';
  if (percent > 20) return 'low';
  return 'critical';
}
