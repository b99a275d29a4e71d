import { useId } from 'react';
import { toast } from 'sonner';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { cn } from '@/lib/utils';
import { useSetWeeklyInsights, useWeeklyInsights } from '../api/weekly-insights';

/**
 * "Weekly insights by e-mail": off unless the owner turns it on; saved as it is switched
 * (GET/PUT /api/notifications/weekly-insights). Until the setting is known it cannot be
 * switched, so a click never sends a guess.
 */
export function WeeklyInsightsSwitch({ className }: { className?: string }) {
  const ids = { label: useId(), hint: useId() };
  const setting = useWeeklyInsights();
  const save = useSetWeeklyInsights();
  const on = setting.data ?? false;
  const toggle = (next: boolean) =>
    save.mutate(next, {
      onSuccess: (saved) =>
        toast.success('Success', {
          description: saved
            ? 'Weekly insights e-mail turned on'
            : 'Weekly insights e-mail turned off',
        }),
      onError: (error) =>
        toast.error('Error', {
          description: error.message || 'Failed to save the weekly insights e-mail',
        }),
    });
  return (
    <div className={cn('grid gap-1', className)}>
      <div className="flex items-center justify-between gap-4">
        <Label id={ids.label} htmlFor={`${ids.label}-switch`} className="text-base">
          Weekly insights by e-mail
        </Label>
        <Switch
          id={`${ids.label}-switch`}
          checked={on}
          aria-describedby={ids.hint}
          disabled={setting.data === undefined || save.isPending}
          onCheckedChange={toggle}
        />
      </div>
      <p id={ids.hint} className="text-sm text-muted-foreground">
        {setting.isError
          ? 'This setting could not be loaded just now.'
          : "Each Monday at 08:00 in your time zone: each dog's week against its usual, its goal days and heat. Saved as you switch it."}
      </p>
    </div>
  );
}
