import type { Device } from '@pawguard/shared';

/** Spec sections 4 and 9: a reading counts as changed beyond this on temperature or humidity. */
export const READING_CHANGE_THRESHOLD = 0.1;

export type ChangedField = 'temperature' | 'humidity' | 'status';

/** The values a Monitoring card shows; they move only when a reading counts as changed. */
export type ShownVitals = Pick<
  Device,
  'temperature_celsius' | 'humidity_percent' | 'vitals_status' | 'heart_rate' | 'activity_level'
>;

export type ShownReading = ShownVitals & {
  /** What the last change touched, for the brief highlight; empty for the first values. */
  changed: readonly ChangedField[];
  /** Counts changes, so each one restarts the highlight. */
  version: number;
};

function differs(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a !== b;
  // Rounded, so that 25.0 → 25.1 (0.10000000000000142 in floating point) is not "more than 0.1".
  return Math.round(Math.abs(a - b) * 1e6) / 1e6 > READING_CHANGE_THRESHOLD;
}

/** What changed between the values shown and a device's latest vitals (none: unchanged). */
export function changedFields(shown: ShownVitals, next: ShownVitals): ChangedField[] {
  const fields: ChangedField[] = [];
  if (differs(shown.temperature_celsius, next.temperature_celsius)) fields.push('temperature');
  if (differs(shown.humidity_percent, next.humidity_percent)) fields.push('humidity');
  if (shown.vitals_status !== next.vitals_status) fields.push('status');
  return fields;
}

const vitalsOf = (device: Device): ShownVitals => ({
  temperature_celsius: device.temperature_celsius,
  humidity_percent: device.humidity_percent,
  vitals_status: device.vitals_status,
  heart_rate: device.heart_rate,
  activity_level: device.activity_level,
});

export type ShownReadings = {
  byDevice: ReadonlyMap<string, ShownReading>;
  /** When the shown values last changed (or were first shown); null before any data. */
  lastUpdated: number | null;
};

export const NOTHING_SHOWN: ShownReadings = { byDevice: new Map(), lastUpdated: null };

/**
 * The next values to show, given the devices' latest vitals that arrived at `at`: a device
 * seen for the first time shows its values; a changed reading replaces them all and moves
 * the last-updated time; an unchanged reading changes neither.
 */
export function nextShownReadings(
  previous: ShownReadings,
  devices: readonly Device[],
  at: number,
): ShownReadings {
  const byDevice = new Map<string, ShownReading>();
  let updated = previous.lastUpdated === null;
  for (const device of devices) {
    const shown = previous.byDevice.get(device.id);
    const next = vitalsOf(device);
    if (shown === undefined) {
      byDevice.set(device.id, { ...next, changed: [], version: 0 });
      continue;
    }
    const changed = changedFields(shown, next);
    if (changed.length === 0) {
      byDevice.set(device.id, shown);
    } else {
      byDevice.set(device.id, { ...next, changed, version: shown.version + 1 });
      updated = true;
    }
  }
  return { byDevice, lastUpdated: updated ? at : previous.lastUpdated };
}
