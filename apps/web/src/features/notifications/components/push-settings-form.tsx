import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  DEFAULT_PUSH_SETTINGS,
  PUSH_LEVELS,
  type PushLevel,
  type PushSettings,
} from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import { usePushSettings } from '../api/get-push-settings';
import { useUpdatePushSettings } from '../api/update-push-settings';

const LEVEL_LABELS: Record<PushLevel, string> = {
  WARNING: 'Warning and above',
  DANGER: 'Danger and above',
  CRITICAL: 'Critical only',
};

/** Under the select: what the choice means, in full. */
const LEVEL_HINTS: Record<PushLevel, string> = {
  WARNING: 'Warning, Danger and Critical heat alerts push to you.',
  DANGER: 'Danger and Critical heat alerts push to you; Warnings stay in the app and e-mail.',
  CRITICAL: 'Only Critical heat alerts push to you; the others stay in the app and e-mail.',
};

/**
 * Which alerts push, for every browser where push is on: the lowest heat level (Warning and
 * above unless chosen otherwise) and, off unless chosen, a collar going offline or its battery
 * running low. Saved on its own; until the saved settings are known it cannot be saved, so a
 * click never puts the defaults over them.
 */
export function PushSettingsForm({ className }: { className?: string }) {
  const settings = usePushSettings();
  const ids = {
    form: useId(),
    level: useId(),
    levelHint: useId(),
    offline: useId(),
    offlineHint: useId(),
    battery: useId(),
    batteryHint: useId(),
  };
  // What the person changed, over the saved settings.
  const [edits, setEdits] = useState<Partial<PushSettings>>({});
  const shown: PushSettings = { ...(settings.data ?? DEFAULT_PUSH_SETTINGS), ...edits };
  const save = useUpdatePushSettings();
  const known = settings.data !== undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!known) return;
    save.mutate(shown, {
      onSuccess: () => {
        setEdits({});
        toast.success('Success', { description: 'Push settings saved' });
      },
      onError: (error) => {
        console.error('Failed to save push settings', error);
        toast.error('Error', { description: 'Failed to save push settings' });
      },
    });
  };

  return (
    <form
      onSubmit={submit}
      className={cn('grid gap-5', className)}
      aria-labelledby={ids.form}
      noValidate
    >
      <div className="grid gap-1">
        <h3 id={ids.form} className="text-base font-semibold">
          Which alerts push
        </h3>
        <p className="text-sm text-muted-foreground">To every browser where push is on for you.</p>
      </div>
      {settings.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <span>Your push settings could not be loaded just now.</span>
          <Button type="button" variant="outline" size="sm" onClick={() => void settings.refetch()}>
            Try Again
          </Button>
        </div>
      ) : null}
      <div className="grid gap-2">
        <Label htmlFor={ids.level}>Push alerts at</Label>
        <NativeSelect
          id={ids.level}
          value={shown.min_level}
          disabled={!known}
          aria-describedby={ids.levelHint}
          onChange={(e) => setEdits((s) => ({ ...s, min_level: e.target.value as PushLevel }))}
        >
          {PUSH_LEVELS.map((level) => (
            <option key={level} value={level}>
              {LEVEL_LABELS[level]}
            </option>
          ))}
        </NativeSelect>
        <p id={ids.levelHint} className="text-sm text-muted-foreground">
          {LEVEL_HINTS[shown.min_level]}
        </p>
      </div>
      <SwitchRow
        id={ids.offline}
        hintId={ids.offlineHint}
        label="Collar offline"
        hint="When a collar stops sending readings."
        checked={shown.offline}
        disabled={!known}
        onChange={(offline) => setEdits((s) => ({ ...s, offline }))}
      />
      <SwitchRow
        id={ids.battery}
        hintId={ids.batteryHint}
        label="Low battery"
        hint="When a collar’s battery runs low."
        checked={shown.low_battery}
        disabled={!known}
        onChange={(low_battery) => setEdits((s) => ({ ...s, low_battery }))}
      />
      <div>
        <Button type="submit" variant="outline" disabled={!known || save.isPending}>
          {save.isPending ? 'Saving...' : 'Save push settings'}
        </Button>
      </div>
    </form>
  );
}

function SwitchRow({
  id,
  hintId,
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  hintId: string;
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <div className="grid gap-1">
      <div className="flex items-center justify-between gap-4">
        <Label htmlFor={id}>{label}</Label>
        <Switch
          id={id}
          checked={checked}
          disabled={disabled}
          aria-describedby={hintId}
          onCheckedChange={onChange}
        />
      </div>
      <p id={hintId} className="text-sm text-muted-foreground">
        {hint}
      </p>
    </div>
  );
}
