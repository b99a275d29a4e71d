import { useId } from 'react';
import { toast } from 'sonner';
import { Label } from '@/components/ui/label';
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
  const toggle = () =>
    save.mutate(!on, {
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
        <button
          id={`${ids.label}-switch`}
          type="button"
          role="switch"
          aria-checked={on}
          aria-describedby={ids.hint}
          disabled={setting.data === undefined || save.isPending}
          onClick={toggle}
          className={cn(
            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 disabled:opacity-50',
            on ? 'bg-orange-600' : 'bg-slate-300',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-block size-5 rounded-full bg-white shadow transition-transform',
              on ? 'translate-x-5' : 'translate-x-0.5',
            )}
          />
        </button>
      </div>
      <p id={ids.hint} className="text-sm text-muted-foreground">
        {setting.isError
          ? 'This setting could not be loaded just now.'
          : "Each Monday at 08:00 in your time zone: each dog's week against its usual, its goal days and heat. Saved as you switch it."}
      </p>
    </div>
  );
}
