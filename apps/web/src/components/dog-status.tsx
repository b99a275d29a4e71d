import { useEffect, useState, type ReactNode } from 'react';
import { ChevronRight, CircleDashed, ShieldAlert, ShieldCheck, Wifi, WifiOff } from 'lucide-react';
import {
  FRESH_MS,
  formatOneDecimal,
  formatRelativeTime,
  isFresh,
  levelSetBy,
  vitalsRank,
  type Alert,
  type Device,
  type VitalsStatus,
} from '@pawguard/shared';
import { AlertBanner } from '@/components/alert-banner';
import { CollarOffBadge } from '@/components/collar-off-badge';
import { EmergencyVetLink, HeatFirstAid, LEVEL_LOOK, isRaised } from '@/components/heat-risk';
import { Temperature } from '@/lib/display-units';
import { Badge } from '@/components/ui/badge';
import { BatteryMeter } from '@/components/ui/battery-meter';
import { cn } from '@/lib/utils';

/**
 * The parts of the card every screen shows a dog with (dashboard, My Pets, Monitoring, the
 * device page): the dog's one level first (DESIGN §3 "One level per dog"), its temperature
 * large, the other values and how old they are, one line of why, and what to do and all the
 * reasons on demand. One word set for the level everywhere: Safe, Warning, Danger, Critical,
 * and "Collar off?" for a collar that seems not to be worn.
 */

/** What a card shows of a collar's latest reading, from a device or a reading. */
export type CardReading = {
  /** The dog's one level (`vitals_status`, a reading's `status`). */
  level: VitalsStatus | null;
  thresholdStatus: VitalsStatus | null;
  riskBand: VitalsStatus | null;
  riskReasons: readonly string[];
  /** When the collar took the reading (ISO-8601), null before the first. */
  recordedAt: string | null;
  temperature: number | null;
  humidity: number | null;
  heartRate: number | null;
  activity: number | null;
  battery: number | null;
  collarOff: boolean;
};

export const deviceReading = (d: Device): CardReading => ({
  level: d.vitals_status,
  thresholdStatus: d.threshold_status,
  riskBand: d.risk_band,
  riskReasons: d.risk_reasons,
  recordedAt: d.vitals_recorded_at,
  temperature: d.temperature_celsius,
  humidity: d.humidity_percent,
  heartRate: d.heart_rate,
  activity: d.activity_level,
  battery: d.battery_level,
  collarOff: d.collar_off,
});

/** The open heat alert among these, if any (one per collar). */
export const openHeatAlert = (alerts: readonly Alert[] | undefined) =>
  alerts?.find((a) => a.type === 'heat' && !a.resolved);

/**
 * How worried to be, for the order of the cards (worst first): CRITICAL > DANGER > WARNING >
 * a collar off or a reading not fresh (or none yet) > SAFE > no collar at all. A dog whose
 * reading went stale while a heat alert is open ranks by that alert's level.
 */
export function worry(
  reading: CardReading | null,
  alerts: readonly Alert[] | undefined,
  now: number,
): number {
  const alert = openHeatAlert(alerts);
  const alertRank = alert ? 3 + vitalsRank(alert.level ?? 'WARNING') : 0;
  if (reading === null) return Math.max(alertRank, 0);
  const fresh = isFresh(reading.recordedAt, now);
  if (fresh && isRaised(reading.level)) return Math.max(alertRank, 3 + vitalsRank(reading.level));
  if (!fresh || reading.collarOff || reading.level === null) return Math.max(alertRank, 2);
  return Math.max(alertRank, 1);
}

/** Worst first; equals by name, so the order stays put while nothing changes. */
export function worstFirst<T>(
  items: readonly T[],
  worryOf: (item: T) => number,
  nameOf: (item: T) => string,
): T[] {
  return items
    .map((item) => ({ item, worry: worryOf(item), name: nameOf(item) }))
    .sort((a, b) => b.worry - a.worry || a.name.localeCompare(b.name))
    .map(({ item }) => item);
}

/** A reason in a few words for the one line: "…, about 2× the risk" left for the details. */
export function shortReason(reason: string): string {
  const short = reason.replace(/,\s*about [\d.]+× the risk$/, '').trim();
  return short.charAt(0).toUpperCase() + short.slice(1);
}

const THRESHOLD_REASON: Record<Exclude<VitalsStatus, 'SAFE'>, string> = {
  WARNING: 'collar temperature at or above your warning threshold',
  DANGER: 'heat index at or above your critical threshold',
  CRITICAL: 'collar temperature at or above your critical threshold',
};

/**
 * Why the dog is at its level, the reason that set it first: the owner's threshold when the
 * thresholds alone reach the level, else the heat-risk model's reasons (docs/heat-risk.md).
 */
export function reasonsFor(reading: CardReading): string[] {
  const thresholds = reading.thresholdStatus;
  const threshold = isRaised(thresholds) ? [THRESHOLD_REASON[thresholds]] : [];
  if (thresholds && levelSetBy(thresholds, reading.riskBand) === 'thresholds')
    return [...threshold, ...reading.riskReasons];
  return [...reading.riskReasons, ...threshold];
}

/** The one line of why: the leading reason and the next, in a few words. */
export const whyLine = (reasons: readonly string[]) =>
  reasons.slice(0, 2).map(shortReason).join(' · ');

/**
 * The dog's level in one word and its colour. A level from a reading no longer fresh is
 * dimmed and says so ("Last known"): it is not the dog's state now. A collar that seems not
 * to be worn says "Collar off?" rather than Safe.
 */
export function LevelWord({
  level,
  stale,
  collarOff,
  size = 'lg',
  label,
}: {
  level: VitalsStatus | null;
  stale: boolean;
  collarOff: boolean;
  size?: 'lg' | 'sm';
  /** Said before the word to a screen reader where no label is shown. */
  label?: string;
}) {
  const offOnly = collarOff && !stale && !isRaised(level);
  const look = level ? LEVEL_LOOK[level] : null;
  const Icon = offOnly ? CircleDashed : level === 'SAFE' ? ShieldCheck : ShieldAlert;
  const word = offOnly ? 'Collar off?' : (look?.word ?? '—');
  return (
    <span
      data-level={level ?? undefined}
      data-stale={stale ? 'true' : undefined}
      data-collar-off={offOnly ? 'true' : undefined}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-md border font-bold',
        size === 'lg' ? 'px-2.5 py-1 text-xl' : 'px-2 py-0.5 text-sm',
        stale || offOnly || !look
          ? 'border-dashed border-slate-300 bg-slate-50 text-slate-600'
          : look.className,
      )}
    >
      <Icon className={size === 'lg' ? 'size-5' : 'size-4'} aria-hidden="true" />
      {label ? <span className="sr-only">{label}: </span> : null}
      {stale && look ? (
        <>
          <span className="text-xs font-medium">Last known</span> {look.word}
        </>
      ) : (
        word
      )}
    </span>
  );
}

/**
 * Whether the card shows the dog above Safe: its level raised (now, or last known) or a heat
 * alert open. The card's other parts say nothing that reads as an all-clear beside it.
 */
export const showsAboveSafe = (
  reading: CardReading | null,
  alerts: readonly Alert[] | undefined,
): boolean => isRaised(reading?.level) || openHeatAlert(alerts) !== undefined;

/**
 * Whether a reading is fresh at `now` (DESIGN "Freshness": now − timestamp < 120 s), and
 * stale from the very moment it turns so, even on a screen whose clock ticks seldom (the
 * admin's list, every 30 s): a timer on the real clock says when.
 */
export function useFresh(recordedAt: string | null, now: number): boolean {
  const [expired, setExpired] = useState<string | null>(null);
  const fresh = isFresh(recordedAt, now);
  useEffect(() => {
    if (recordedAt === null || !fresh) return;
    const timer = window.setTimeout(
      () => setExpired(recordedAt),
      Math.max(0, Date.parse(recordedAt) + FRESH_MS - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [recordedAt, fresh]);
  return fresh && expired !== recordedAt;
}

/**
 * A device's level word as the owner's cards say it: "Last known …", dimmed, once its latest
 * reading is no longer fresh; "Collar off?" for a collar judged not worn, and both for one
 * judged off whose heat still raises its level (decision 0034).
 */
export function DeviceLevelWord({
  device,
  now,
  size = 'sm',
}: {
  device: Pick<Device, 'vitals_status' | 'vitals_recorded_at' | 'collar_off'>;
  now: number;
  size?: 'lg' | 'sm';
}) {
  const fresh = useFresh(device.vitals_recorded_at, now);
  return (
    <LevelWords
      level={device.vitals_status}
      stale={!fresh}
      collarOff={device.collar_off}
      size={size}
    />
  );
}

/**
 * The level word, and beside a raised level from a collar judged off (decision 0034) the
 * "Collar off?" badge too: both are true then (a stale level says neither of now).
 */
function LevelWords({
  level,
  stale,
  collarOff,
  size,
}: {
  level: VitalsStatus | null;
  stale: boolean;
  collarOff: boolean;
  size?: 'lg' | 'sm';
}) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <LevelWord level={level} stale={stale} collarOff={collarOff} size={size} />
      {!stale && collarOff && isRaised(level) ? (
        <CollarOffBadge device={{ collar_off: true }} />
      ) : null}
    </span>
  );
}

/** "Updated 5m ago": the reading's own age, ticking with `now`. */
export function ReadingAge({ recordedAt, now }: { recordedAt: string | null; now: number }) {
  if (recordedAt === null) return <>Waiting for the first reading</>;
  const age = formatRelativeTime(recordedAt, now).replace(/^Just now$/, 'just now');
  return <time dateTime={recordedAt}>{`Updated ${age}`}</time>;
}

/** One labelled value; `flashKey` replays its brief highlight when a reading changed it. */
function Fact({
  label,
  children,
  flashKey,
  className,
}: {
  label: string;
  children: ReactNode;
  flashKey?: string | undefined;
  className?: string;
}) {
  return (
    <div className={className}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd
        key={flashKey}
        data-changed={flashKey ? 'true' : undefined}
        className={cn(
          '-mx-1 rounded px-1 font-semibold tabular-nums',
          flashKey && 'animate-reading-flash',
        )}
      >
        {children}
      </dd>
    </div>
  );
}

export const TEMPERATURE_LABEL = 'Body temperature (collar)';

/**
 * The dog's level first, under the spec's 'Safe zone' label, with one line of why and what to
 * do on demand below it. The level is the latest reading's while it is fresh; after that it is
 * dimmed, and an open heat alert still says what to do.
 */
export function LevelBlock({
  reading,
  alerts,
  now,
  flashKey,
  className,
}: {
  reading: CardReading | null;
  alerts: readonly Alert[] | undefined;
  now: number;
  flashKey?: string | undefined;
  className?: string;
}) {
  const stale = reading !== null && !isFresh(reading.recordedAt, now);
  return (
    <div className={cn('grid gap-1', className)}>
      <dl>
        <Fact label="Safe zone" flashKey={flashKey}>
          <LevelWords
            level={reading?.level ?? null}
            stale={stale}
            collarOff={reading?.collarOff ?? false}
          />
        </Fact>
      </dl>
      {reading ? (
        <WhyAndWhatToDo reading={reading} alert={openHeatAlert(alerts)} now={now} />
      ) : null}
    </div>
  );
}

/**
 * The values, most important first: the temperature large, then humidity, heart rate,
 * activity, battery and the reading's own age (not when the page last asked).
 */
export function ReadingFacts({
  reading,
  now,
  flash = () => undefined,
  className,
}: {
  reading: CardReading;
  now: number;
  flash?: (field: 'temperature' | 'humidity') => string | undefined;
  className?: string;
}) {
  return (
    <dl className={cn('grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3', className)}>
      {reading.temperature === null ? null : (
        <Fact
          label={TEMPERATURE_LABEL}
          flashKey={flash('temperature')}
          className="col-span-2 text-2xl sm:col-span-3"
        >
          <Temperature celsius={reading.temperature} />
        </Fact>
      )}
      <Fact label="Humidity" flashKey={flash('humidity')}>
        {reading.humidity === null ? '—' : `${formatOneDecimal(reading.humidity)}%`}
      </Fact>
      {reading.heartRate !== null ? <Fact label="Heart rate">{reading.heartRate} bpm</Fact> : null}
      {reading.activity !== null ? <Fact label="Activity level">{reading.activity}%</Fact> : null}
      <div className="col-span-2 sm:col-span-3">
        <dt className="text-xs text-muted-foreground">Battery</dt>
        <dd>
          <BatteryMeter percent={reading.battery} />
        </dd>
      </div>
      <div className="col-span-2 sm:col-span-3">
        <dt className="sr-only">Reading age</dt>
        <dd className="text-sm text-muted-foreground" data-reading-age="">
          <ReadingAge recordedAt={reading.recordedAt} now={now} />
        </dd>
      </div>
    </dl>
  );
}

/**
 * Why, in one line, when the level shown is raised, and on demand (a disclosure, keyboard
 * operable as any <details>): what to do now, every reason and the emergency vet finder.
 * The why always describes the reading the card shows, live or last known, so it reads the
 * same before and after a reload; what to do follows the level now, or an open heat alert
 * higher than it. A stale reading alone says nothing of now: its why, no first aid.
 */
export function WhyAndWhatToDo({
  reading,
  alert,
  now,
  className,
}: {
  reading: CardReading;
  alert: Alert | undefined;
  now: number;
  className?: string;
}) {
  const fresh = isFresh(reading.recordedAt, now);
  // The level the card shows: the dog's now while fresh, "Last known" after.
  const shown = isRaised(reading.level) ? reading.level : null;
  const current = fresh ? shown : null;
  const alertLevel = alert ? (alert.level ?? 'WARNING') : null;
  // An open heat alert higher than the level now (or beside a stale reading) still says what
  // to do for its level: a milder first aid beside a Critical alert would mislead.
  const alertLeads =
    alertLevel !== null && (current === null || vitalsRank(alertLevel) > vitalsRank(current));
  const level = alertLeads ? alertLevel : current;
  // The reading's own reasons, never the alert's in their place: an alert keeps the reasons of
  // the reading it opened or last rose on, often an older one with other values (a 35 °C
  // reading's heat index beside 41.5 °C shown), and they must not change when it goes stale.
  const reasons = shown ? reasonsFor(reading) : [];
  // An alert higher than the level shown says why it rose, apart and named as the alert's;
  // at the same level the two lists name the same threshold in other words: said once.
  const alertReasons =
    alert && alertLevel && (shown === null || vitalsRank(alertLevel) > vitalsRank(shown))
      ? alert.reasons
      : [];
  if (!isRaised(level) && reasons.length === 0) return null;
  // At a glance: the reading's why, or, beside a reading with none (Safe now, an alert still
  // open above it), why the alert rose, named as the alert's.
  const line =
    reasons.length > 0
      ? whyLine(reasons)
      : alertLevel && alertReasons.length > 0
        ? `The alert reached ${LEVEL_LOOK[alertLevel].word}: ${whyLine(alertReasons)}`
        : null;
  return (
    <div className={cn('grid gap-1 text-sm', className)} data-why="">
      {line ? (
        <p className="line-clamp-2 font-medium" title={line} data-why-line="">
          {line}
        </p>
      ) : null}
      <details className="group">
        <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1 rounded-md font-semibold underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-details-marker]:hidden">
          <ChevronRight
            className="size-4 shrink-0 transition-transform group-open:rotate-90"
            aria-hidden="true"
          />
          {isRaised(level) ? 'What to do and why' : 'Why'}
        </summary>
        <div
          className={cn(
            'mt-1 grid gap-3 rounded-lg border p-3',
            isRaised(level)
              ? LEVEL_LOOK[level].className
              : 'border-dashed border-slate-300 bg-slate-50 text-slate-700',
          )}
        >
          {isRaised(level) ? (
            <div>
              <p className="font-medium">What to do now</p>
              <HeatFirstAid level={level} className="mt-1" />
            </div>
          ) : null}
          {/* Under a summary saying "Why" already, the list needs no title of its own. */}
          <ReasonList title={isRaised(level) ? 'Why' : null} reasons={reasons} />
          {alertLevel ? (
            <ReasonList
              title={`Why the alert reached ${LEVEL_LOOK[alertLevel].word}`}
              reasons={alertReasons}
            />
          ) : null}
          {isRaised(level) ? (
            <p>
              <EmergencyVetLink />
            </p>
          ) : null}
        </div>
      </details>
    </div>
  );
}

function ReasonList({ title, reasons }: { title: string | null; reasons: readonly string[] }) {
  if (reasons.length === 0) return null;
  return (
    <div>
      {title ? <p className="font-medium">{title}</p> : null}
      <ul className="mt-1 grid list-disc gap-1 pl-5">
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The open alerts of a card, each one line with Resolve: a heat alert's why and what to do
 * are the card's own (above), said once; the other alerts keep their own few words.
 */
export function CardAlerts({
  alerts,
  now,
  canResolve,
}: {
  alerts: readonly Alert[];
  now: number;
  canResolve: boolean;
}) {
  if (alerts.length === 0) return null;
  return (
    <div className="grid gap-2">
      {alerts.map((alert) => (
        <AlertBanner
          key={alert.id}
          alert={alert}
          now={now}
          compact
          guidance={alert.type !== 'heat'}
          canResolve={canResolve}
        />
      ))}
    </div>
  );
}

/** Spec section 4: Connected while the latest reading is under 2 minutes old. */
export function ConnectionBadge({ connected }: { connected: boolean }) {
  return connected ? (
    <Badge variant="success" data-connection="connected">
      <Wifi aria-hidden="true" />
      Connected
    </Badge>
  ) : (
    <Badge variant="muted" data-connection="disconnected">
      <WifiOff aria-hidden="true" />
      Disconnected
    </Badge>
  );
}
