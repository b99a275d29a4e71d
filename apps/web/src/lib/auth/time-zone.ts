import {
  defaultUnitsForLocale,
  type ProfilePreferencesInput,
  type TemperatureUnit,
  type User,
  type WeightUnit,
} from '@pawguard/shared';

// The browser's defaults for the account's display preferences (DESIGN §3 "Display"). No zod
// and no API here: screens read these while the session API is still loading.

/** The browser's IANA time zone (e.g. America/New_York), or null when it gives none. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** The units of the browser's locale: °F and lbs for US-style locales, else °C and kg. */
export function browserUnits(): { temperature_unit: TemperatureUnit; weight_unit: WeightUnit } {
  const locale = typeof navigator === 'undefined' ? undefined : navigator.language;
  return defaultUnitsForLocale(locale);
}

/**
 * The browser's defaults for whatever display preference the account has none of (units,
 * time zone), or null when it has them all.
 */
export function missingPreferences(user: User): ProfilePreferencesInput | null {
  const units = browserUnits();
  const zone = browserTimeZone();
  const missing: ProfilePreferencesInput = {
    ...(user.temperature_unit === null ? { temperature_unit: units.temperature_unit } : {}),
    ...(user.weight_unit === null ? { weight_unit: units.weight_unit } : {}),
    ...(user.time_zone === null && zone ? { time_zone: zone } : {}),
  };
  return Object.keys(missing).length ? missing : null;
}
