import { useContext, useMemo } from 'react';
import {
  formatTemperature,
  formatTemperatureF,
  formatWeight,
  formatWeightIn,
  temperatureParts,
  type TemperatureUnit,
  type WeightUnit,
} from '@pawguard/shared';
import { AuthContext } from '@/lib/auth';
import { browserTimeZone, browserUnits } from '@/lib/auth/time-zone';
import { cn } from '@/lib/utils';

/**
 * The signed-in account's display preferences (DESIGN §3 "Display"), with the browser's
 * defaults for any it has none of (and when signed out), and the one way every screen shows a
 * temperature or a weight in them.
 */
export interface DisplayUnits {
  temperatureUnit: TemperatureUnit;
  weightUnit: WeightUnit;
  timeZone: string | null;
  /** A temperature in °C: '31.2°C / 88.2°F' or '88.2°F / 31.2°C'. */
  temperature: (celsius: number) => string;
  /** A temperature in °F (a threshold), the same way. */
  temperatureF: (fahrenheit: number) => string;
  /** A weight in lbs, the preferred unit first and the other beside it: '10.2 kg (22.5 lbs)'. */
  weight: (lbs: number) => string;
  /** A weight in lbs in the preferred unit only, where there is no room for both: '10.2 kg'. */
  weightShort: (lbs: number) => string;
}

export function useDisplayUnits(): DisplayUnits {
  const user = useContext(AuthContext)?.user ?? null;
  const temperatureUnit = user?.temperature_unit ?? null;
  const weightUnit = user?.weight_unit ?? null;
  const timeZone = user?.time_zone ?? null;
  return useMemo(() => {
    const browser = browserUnits();
    const t = temperatureUnit ?? browser.temperature_unit;
    const w = weightUnit ?? browser.weight_unit;
    return {
      temperatureUnit: t,
      weightUnit: w,
      timeZone: timeZone ?? browserTimeZone(),
      temperature: (celsius) => formatTemperature(celsius, t),
      temperatureF: (fahrenheit) => formatTemperatureF(fahrenheit, t),
      weight: (lbs) => formatWeight(lbs, w),
      weightShort: (lbs) => formatWeightIn(lbs, w),
    };
  }, [temperatureUnit, weightUnit, timeZone]);
}

/**
 * A temperature given in °C as a reading shows it: the preferred unit, then '/ the other' in
 * a quieter style ('31.2°C / 88.2°F'); the text reads the same as `temperature()`.
 */
export function Temperature({
  celsius,
  secondaryClassName = 'text-base font-normal text-muted-foreground',
}: {
  celsius: number;
  /** The style of the second unit (smaller and muted by default, for large values). */
  secondaryClassName?: string;
}) {
  const { temperatureUnit } = useDisplayUnits();
  const { first, second } = temperatureParts(celsius, temperatureUnit);
  return (
    <>
      {first} <span className={cn(secondaryClassName)}>/ {second}</span>
    </>
  );
}
