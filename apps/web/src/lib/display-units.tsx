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
import {
  DATE,
  DATE_TIME,
  formatInZone,
  TIME,
  TIME_SECONDS,
  timeZoneNote,
  type Instant,
} from '@/lib/time-format';

/**
 * The signed-in account's display preferences (DESIGN §3 "Display"), with the browser's
 * defaults for any it has none of (and when signed out), and the one way every screen shows a
 * temperature or a weight in them.
 */
export interface DisplayUnits {
  temperatureUnit: TemperatureUnit;
  weightUnit: WeightUnit;
  /** The account's time zone, or the browser's when it has none; every absolute time is in it. */
  timeZone: string | null;
  /** The time of day: '14:05'. */
  time: (at: Instant | null | undefined) => string;
  /** The time of day with seconds: '14:05:09'. */
  timeSeconds: (at: Instant | null | undefined) => string;
  /** A date and time: 'Jul 1, 2026, 2:05 PM'. */
  dateTime: (at: Instant | null | undefined) => string;
  /** A date: 'Jul 1, 2026'. */
  date: (at: Instant | null | undefined) => string;
  /** 'Times in Europe/Berlin (CEST)' when that zone is not the browser's, else null. */
  timeZoneNote: string | null;
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
    const browserZone = browserTimeZone();
    const zone = timeZone ?? browserZone;
    return {
      temperatureUnit: t,
      weightUnit: w,
      timeZone: zone,
      time: (at) => formatInZone(at, zone, TIME),
      timeSeconds: (at) => formatInZone(at, zone, TIME_SECONDS),
      dateTime: (at) => formatInZone(at, zone, DATE_TIME),
      date: (at) => formatInZone(at, zone, DATE),
      timeZoneNote: timeZoneNote(zone, browserZone),
      temperature: (celsius) => formatTemperature(celsius, t),
      temperatureF: (fahrenheit) => formatTemperatureF(fahrenheit, t),
      weight: (lbs) => formatWeight(lbs, w),
      weightShort: (lbs) => formatWeightIn(lbs, w),
    };
  }, [temperatureUnit, weightUnit, timeZone]);
}

/** The note a list of times carries when they are in another zone than the browser's. */
export function TimeZoneNote({ className }: { className?: string }) {
  const { timeZoneNote } = useDisplayUnits();
  if (!timeZoneNote) return null;
  return <p className={cn('text-xs text-muted-foreground', className)}>{timeZoneNote}</p>;
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
