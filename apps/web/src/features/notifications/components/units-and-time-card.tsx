import { useId, useMemo, useState, type FormEvent } from 'react';
import { Globe } from 'lucide-react';
import { toast } from 'sonner';
import {
  formatTemperature,
  formatWeight,
  type TemperatureUnit,
  type WeightUnit,
} from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { useAuth } from '@/lib/auth';
import { useDisplayUnits } from '@/lib/display-units';
import { cn } from '@/lib/utils';
import { WeeklyInsightsSwitch } from './weekly-insights-switch';

const TEMPERATURE_CHOICES: readonly { value: TemperatureUnit; label: string }[] = [
  { value: 'F', label: '°F first' },
  { value: 'C', label: '°C first' },
];
const WEIGHT_CHOICES: readonly { value: WeightUnit; label: string }[] = [
  { value: 'lbs', label: 'lbs' },
  { value: 'kg', label: 'kg' },
];

/** The IANA zones this browser knows, with `current` among them even where it lists none. */
function timeZoneChoices(current: string | null): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(zones);
  all.add('UTC');
  if (current) all.add(current);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** A group of radio buttons under a legend: arrow keys move between them, as native radios do. */
function Choices<T extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  choices: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {choices.map((c) => (
          <label
            key={c.value}
            className={cn(
              'flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              value === c.value && 'border-orange-600 bg-orange-50',
            )}
          >
            <input
              type="radio"
              name={name}
              value={c.value}
              checked={value === c.value}
              onChange={() => onChange(c.value)}
              className="size-4 accent-orange-600"
            />
            {c.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Units and time (DESIGN §3 "Display"): which temperature unit comes first (both are always
 * shown), the unit of pets' weights, and the time zone of mail times and the daily digest.
 * Starts from the account's, or the browser's where the account has none; saved on its own.
 */
export function UnitsAndTimeCard({ className }: { className?: string }) {
  const { savePreferences } = useAuth();
  const shown = useDisplayUnits();
  const [temperatureUnit, setTemperatureUnit] = useState(shown.temperatureUnit);
  const [weightUnit, setWeightUnit] = useState(shown.weightUnit);
  const [timeZone, setTimeZone] = useState(shown.timeZone ?? 'UTC');
  const [saving, setSaving] = useState(false);
  const zones = useMemo(() => timeZoneChoices(shown.timeZone), [shown.timeZone]);
  const ids = { zone: useId(), zoneHint: useId(), name: useId(), example: useId() };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await savePreferences({
        temperature_unit: temperatureUnit,
        weight_unit: weightUnit,
        time_zone: timeZone,
      });
      toast.success('Success', { description: 'Units and time zone saved' });
    } catch (error) {
      console.error('Failed to save units and time zone', error);
      toast.error('Error', { description: 'Failed to save units and time zone' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(e) => void save(e)} className={className} aria-labelledby={ids.name}>
      <Card>
        <CardHeader>
          <CardTitle as="h2" id={ids.name} className="flex items-center gap-2">
            <Globe className="size-5 text-orange-600" aria-hidden="true" />
            Units and time
          </CardTitle>
          <CardDescription>
            How PawGuard shows temperatures and weights to you, on screen and in e-mails, and the
            time zone of e-mail times. The alert thresholds above stay in °F.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <Choices
            legend="Temperature"
            name={`${ids.name}-temperature`}
            choices={TEMPERATURE_CHOICES}
            value={temperatureUnit}
            onChange={setTemperatureUnit}
          />
          <Choices
            legend="Weight"
            name={`${ids.name}-weight`}
            choices={WEIGHT_CHOICES}
            value={weightUnit}
            onChange={setWeightUnit}
          />
          <p id={ids.example} className="text-sm text-muted-foreground">
            For example: {formatTemperature(31.2, temperatureUnit)} · {formatWeight(50, weightUnit)}
          </p>
          <div className="grid gap-2">
            <Label htmlFor={ids.zone}>Time zone</Label>
            <NativeSelect
              id={ids.zone}
              value={timeZone}
              aria-describedby={ids.zoneHint}
              onChange={(e) => setTimeZone(e.target.value)}
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </NativeSelect>
            <p id={ids.zoneHint} className="text-sm text-muted-foreground">
              E-mails give times in this zone, and the daily summary comes at 08:00 there.
            </p>
          </div>
          <div>
            <Button type="submit" variant="outline" disabled={saving}>
              {saving ? 'Saving...' : 'Save units and time'}
            </Button>
          </div>
          {/* Sent in the zone above; saved on its own, as it is switched. */}
          <WeeklyInsightsSwitch className="border-t pt-5" />
        </CardContent>
      </Card>
    </form>
  );
}
