import { useId } from 'react';
import { Link } from 'react-router';
import { Hospital, ThermometerSun } from 'lucide-react';
import {
  RISK_HOLD_MS,
  riskBandHeld,
  vitalsRank,
  type Alert,
  type RiskBand,
  type VitalsStatus,
} from '@pawguard/shared';
import { HEAT_FIRST_AID } from '@pawguard/shared/content';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';

/** A level above SAFE: the ones with first aid, a colour and an alarm. */
export type RaisedLevel = keyof typeof HEAT_FIRST_AID;

/** One colour language for a raised heat level, on the cards, the risk panel and the alert. */
export const HEAT_LEVEL_LOOK = {
  WARNING: { label: 'Warning', className: 'border-amber-300 bg-amber-50 text-amber-950' },
  DANGER: { label: 'Danger', className: 'border-orange-300 bg-orange-50 text-orange-950' },
  CRITICAL: { label: 'Critical', className: 'border-red-300 bg-red-50 text-red-950' },
} as const satisfies Record<RaisedLevel, { label: string; className: string }>;

export const isRaised = (band: string | null | undefined): band is RaisedLevel =>
  band === 'WARNING' || band === 'DANGER' || band === 'CRITICAL';

/**
 * Whether the heat-risk panel shown beside an open heat alert says what the alert would: its
 * band is raised and at least the alert's level. Then the alert leaves its why and first aid
 * to the panel; when the alert is higher (the owner's threshold rose first, or an alert that
 * never steps down outlived the danger), the alert keeps its own and the panel gives none.
 */
export function riskCovers(band: string | null | undefined, alert: Alert): boolean {
  return (
    alert.type === 'heat' &&
    isRaised(band) &&
    vitalsRank(band) >= vitalsRank(alert.level ?? 'WARNING')
  );
}

/** Whether an open heat alert is among these: then "Heat risk: low" would read as all clear. */
export const heatAlertOpen = (alerts: readonly Pick<Alert, 'type'>[] | undefined) =>
  alerts?.some((a) => a.type === 'heat') ?? false;

/** Whether an open heat alert among these says more than the risk panel (its first aid wins). */
export const alertAboveRisk = (band: string | null | undefined, alerts: readonly Alert[]) =>
  alerts.some((a) => a.type === 'heat' && !a.resolved && !riskCovers(band, a));

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

/** All a SAFE judgement needs: one quiet line. */
export function HeatRiskLow({ className }: { className?: string }) {
  return (
    <p data-risk-band="SAFE" className={cn('text-sm text-muted-foreground', className)}>
      Heat risk: low
    </p>
  );
}

/** A level in the words the screens use for it. */
const LEVEL_WORD: Record<VitalsStatus, string> = {
  SAFE: 'Safe',
  WARNING: HEAT_LEVEL_LOOK.WARNING.label,
  DANGER: HEAT_LEVEL_LOOK.DANGER.label,
  CRITICAL: HEAT_LEVEL_LOOK.CRITICAL.label,
};

/**
 * The level the panel headlines: the dog's one level (`vitals_status`, the higher of the
 * thresholds and the model) when it is known, so the panel never names a second level beside
 * the card's; the model's band while it is not.
 */
function headlineLevel(band: RaisedLevel, level: VitalsStatus | null | undefined): RaisedLevel {
  return isRaised(level) && vitalsRank(level) >= vitalsRank(band) ? level : band;
}

type HeatRiskProps = {
  band: RiskBand | null;
  /** The dog's one level (`vitals_status`): the headline and the colour follow it. */
  level?: VitalsStatus | null;
  /** The owner's thresholds' own verdict, said in the small detail line. */
  thresholdStatus?: VitalsStatus | null;
  reasons: readonly string[];
  /** The latest reading's own score: below its band's floor, the band is held (and said so). */
  score?: number | null;
  /** SAFE: say "Heat risk: low" quietly (true) or show nothing (false). */
  quiet?: boolean;
  /** The heading's level where it sits (a card's title is h2 or h3). */
  headingAs?: 'h3' | 'h4';
  /** What to do now and the vet finder; false beside a higher heat alert that says its own. */
  firstAid?: boolean;
  className?: string;
};

/**
 * The heat-risk model's judgement of a collar's latest reading where the owner looks: above
 * SAFE, the band in the alert colours, why, what to do now and the emergency vet finder;
 * SAFE at most a quiet line; not yet judged (null), nothing.
 */
export function HeatRisk({
  band,
  level = null,
  thresholdStatus = null,
  reasons,
  score = null,
  quiet = false,
  headingAs: Heading = 'h3',
  firstAid = true,
  className,
}: HeatRiskProps) {
  const headingId = useId();
  if (!isRaised(band)) {
    return band === 'SAFE' && quiet ? <HeatRiskLow className={className} /> : null;
  }
  const shown = headlineLevel(band, level);
  const look = HEAT_LEVEL_LOOK[shown];
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      data-risk-band={band}
      data-level={shown}
      className={cn('grid gap-2 rounded-lg border p-3 text-sm', look.className, className)}
    >
      <Heading id={headingId} className="flex items-center gap-2 font-semibold">
        <ThermometerSun className="size-4 shrink-0" aria-hidden="true" />
        Heat risk: {look.label}
      </Heading>
      {thresholdStatus ? (
        <p className="text-xs opacity-80">
          Your thresholds: {LEVEL_WORD[thresholdStatus]} · heat-risk model: {LEVEL_WORD[band]}
        </p>
      ) : null}
      {riskBandHeld(band, score) ? (
        <p>
          The latest reading is a little lower. A raised level holds until the risk has clearly
          fallen, and for {RISK_HOLD_MS / 60_000} minutes after; the reasons may be from the last
          minutes.
        </p>
      ) : null}
      <HeatReasons reasons={reasons} />
      {firstAid ? (
        <>
          <div>
            <p className="font-medium">What to do now</p>
            <HeatFirstAid level={shown} className="mt-1" />
          </div>
          <p>
            <EmergencyVetLink />
          </p>
        </>
      ) : null}
    </div>
  );
}
