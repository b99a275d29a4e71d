import { batteryLevel } from '@pawguard/shared';
import { cn } from '@/lib/utils';

const BAR_COLOUR = { good: 'bg-green-500', low: 'bg-yellow-400', critical: 'bg-red-500' } as const;

/** A battery bar (spec section 9): over 50 % green, over 20 % yellow, otherwise red. */
export function BatteryMeter({
  percent,
  className,
}: {
  percent: number | null;
  className?: string;
}) {
  if (percent === null) {
    return <span className={cn('text-sm text-muted-foreground', className)}>Battery unknown</span>;
  }
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  const level = batteryLevel(value);
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <div
        role="meter"
        aria-label="Battery"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}%`}
        data-level={level}
        className="h-2 w-full min-w-16 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className={cn('h-full rounded-full', BAR_COLOUR[level])}
          style={{ width: `${value}%` }}
        />
      </div>
      <span className="w-10 shrink-0 text-right text-sm tabular-nums">{value}%</span>
    </div>
  );
}
