import { Link } from 'react-router';
import { Hospital } from 'lucide-react';
import type { VitalsStatus } from '@pawguard/shared';
import { HEAT_FIRST_AID } from '@pawguard/shared/content';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** A level above SAFE: the ones with first aid, a colour and an alarm. */
export type RaisedLevel = keyof typeof HEAT_FIRST_AID;

/**
 * One word and one colour per level, everywhere a level is shown (cards, alerts, lists):
 * Safe, Warning, Danger, Critical.
 */
export const LEVEL_LOOK = {
  SAFE: { word: 'Safe', className: 'border-green-200 bg-green-50 text-green-800' },
  WARNING: { word: 'Warning', className: 'border-amber-300 bg-amber-50 text-amber-950' },
  DANGER: { word: 'Danger', className: 'border-orange-300 bg-orange-50 text-orange-950' },
  CRITICAL: { word: 'Critical', className: 'border-red-300 bg-red-50 text-red-950' },
} as const satisfies Record<VitalsStatus, { word: string; className: string }>;

export const isRaised = (band: string | null | undefined): band is RaisedLevel =>
  band === 'WARNING' || band === 'DANGER' || band === 'CRITICAL';

/** The first aid that fits the level (content.ts), in order. */
export function HeatFirstAid({ level, className }: { level: RaisedLevel; className?: string }) {
  return (
    <ol className={cn('grid list-decimal gap-1 pl-5', className)}>
      {HEAT_FIRST_AID[level].map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  );
}

/** Why PawGuard is worried, in the model's plain words. Nothing when it gave none. */
export function HeatReasons({
  reasons,
  className,
}: {
  reasons: readonly string[];
  className?: string;
}) {
  if (reasons.length === 0) return null;
  return (
    <div className={className}>
      <p className="font-medium">Why</p>
      <ul className="mt-1 grid list-disc gap-1 pl-5">
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}

/** The emergency vet finder, one tap away (a tall enough target on a phone). */
export function EmergencyVetLink({ className }: { className?: string }) {
  return (
    <Link
      to={paths.emergency}
      className={cn(
        'inline-flex min-h-10 items-center gap-1.5 rounded-md font-semibold underline underline-offset-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
        className,
      )}
    >
      <Hospital className="size-4 shrink-0" aria-hidden="true" />
      Find an emergency vet
    </Link>
  );
}
