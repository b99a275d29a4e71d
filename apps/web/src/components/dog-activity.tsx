import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Flame, Info, Sun, Target } from 'lucide-react';
import type { ActivityResponse, Insight, InsightFlag, InsightsResponse } from '@pawguard/shared';
import { Skeleton } from '@/components/ui/skeleton';
import { petHealthPath } from '@/config/paths';
import { ACTIVITY_REFRESH_MS, useActivity } from '@/lib/api/get-activity';
import { useInsights } from '@/lib/api/get-insights';
import { useInView } from '@/lib/use-in-view';
import { cn } from '@/lib/utils';

/**
 * The goal dialog and its form parts load when an owner opens it: the dashboard's first load
 * stays as light as it was, and the login form's inputs stay out of the signed-in chunk
 * (vite.config.ts, scripts/prerender.mjs).
 */
const GoalDialog = lazy(async () => ({
  default: (await import('@/components/goal-dialog')).GoalDialog,
}));

/**
 * A dog's day on its one card (decision 0042; docs/activity.md): today's active minutes
 * against the goal, the streak, the heat advice on a hot day, the week in one line and a
 * change worth a vet's look. Asked for only once the card comes near the screen, and only
 * for a dog that wears a collar; a call that fails leaves the card as it was.
 */
export function DogActivity({
  dogId,
  dogName,
  canEditGoal = true,
  aboveSafe = false,
  className,
}: {
  dogId: string;
  dogName: string;
  /** The dog's owner sets its goal; an admin looking on does not. */
  canEditGoal?: boolean;
  /** The card shows the dog above Safe (its level, now or last known, or a heat alert). */
  aboveSafe?: boolean;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const inView = useInView(ref);
  const activity = useActivity(dogId, 7, {
    enabled: inView,
    refetchIntervalMs: ACTIVITY_REFRESH_MS,
  });
  const insights = useInsights(dogId, { enabled: inView && activity.isSuccess });
  return (
    <div ref={ref} className={className} data-activity="">
      {activity.data ? (
        <ActivitySummary
          dogId={dogId}
          dogName={dogName}
          activity={activity.data}
          insights={insights.data}
          canEditGoal={canEditGoal}
          aboveSafe={aboveSafe}
        />
      ) : activity.isPending ? (
        <Skeleton className="h-14 rounded-lg" aria-hidden="true" />
      ) : null}
    </div>
  );
}

/** The day's figures of the card, from the dog's 7 days (the last is today). */
export function ActivitySummary({
  dogId,
  dogName,
  activity,
  insights,
  canEditGoal,
  aboveSafe = false,
}: {
  dogId: string;
  dogName: string;
  activity: ActivityResponse;
  insights: InsightsResponse | undefined;
  canEditGoal: boolean;
  aboveSafe?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const today = activity.days.at(-1);
  const goal = today?.goal_minutes ?? activity.goal.active_minutes;
  const active = today?.active_minutes ?? 0;
  const weekLines = insights ? cardWeekLines(insights, aboveSafe) : [];
  const { heat_today: heat, streak } = activity;
  return (
    <section aria-label={`${dogName}'s activity today`} className="grid gap-2 text-sm">
      <div className="flex items-center justify-between gap-2">
        <p className="font-semibold">Activity today</p>
        {canEditGoal ? (
          <button
            type="button"
            onClick={() => setEditing(true)}
            aria-label={`Edit goal for ${dogName}`}
            className="inline-flex min-h-11 items-center gap-1 rounded-md px-1 font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <Target className="size-4" aria-hidden="true" />
            Edit goal
          </button>
        ) : null}
      </div>
      <GoalProgress active={active} goal={goal} label={`${dogName}'s activity today`} />
      <p className="text-muted-foreground" data-streak="">
        <Flame className="mr-1 inline size-4 align-[-3px] text-orange-600" aria-hidden="true" />
        {streakWords(streak.current)}
        {streak.best > streak.current ? ` · best ${streak.best}` : ''}
        {today && today.heat_minutes > 0
          ? ` · ${today.heat_minutes} min above Safe not counted`
          : ''}
      </p>
      <HeatAdvice heat={heat} />
      <div className="grid gap-1 text-muted-foreground" data-week="">
        {insights && weekLines.length > 0 ? (
          // The week the lines sum up: its last day is yesterday, today is not in it.
          <p className="text-xs" data-week-span="">
            {weekSpan(insights)}
          </p>
        ) : null}
        {weekLines.map((line) => (
          <p key={line.kind} className="line-clamp-2" data-week-line={line.kind}>
            {line.text}
          </p>
        ))}
        <Link
          to={petHealthPath(dogId)}
          aria-label={`Health dashboard of ${dogName}`}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Health dashboard
        </Link>
      </div>
      {insights?.flags.map((flag) => (
        <FlagNote key={flag.kind} flag={flag} />
      ))}
      {canEditGoal && editing ? (
        <Suspense fallback={null}>
          <GoalDialog
            dogId={dogId}
            dogName={dogName}
            goal={activity.goal}
            open
            onOpenChange={setEditing}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

/** "3 days in a row", "No streak yet". */
export function streakWords(days: number): string {
  if (days === 0) return 'No streak yet';
  return `${days} ${days === 1 ? 'day' : 'days'} in a row`;
}

/** Where each kind of insight goes in the card's short weekly summary. */
const WEEK_ORDER = ['activity', 'resting_heart_rate', 'heat', 'goal'] as const;

/**
 * The week in short, on the card: activity against the dog's own usual, the resting heart rate,
 * heat exposure and the goal days met, a line each (the mail and the dashboard say the same).
 */
export function weekSummary(insights: InsightsResponse): InsightsResponse['insights'] {
  return [...insights.insights].sort(
    (a, b) => WEEK_ORDER.indexOf(a.kind) - WEEK_ORDER.indexOf(b.kind),
  );
}

/**
 * The week's lines as the card says them. The week is the 7 whole days before today, summed
 * up by a job from the rollups: today is never in it. "No time above Safe this week" beside a
 * dog the card shows above Safe reads as an all-clear that the level beside it denies, so
 * the card leaves that line out then (the level and the alert say the present; the health
 * dashboard still has the line, under its dates). A week with minutes above Safe agrees with
 * the level and stays.
 */
export function cardWeekLines(
  insights: InsightsResponse,
  aboveSafe: boolean,
): InsightsResponse['insights'] {
  return weekSummary(insights).filter(
    (line) => !(aboveSafe && line.kind === 'heat' && noTimeAboveSafe(line)),
  );
}

const noTimeAboveSafe = (line: Insight) =>
  ['warning_minutes', 'danger_minutes', 'critical_minutes'].every(
    (name) => (line.numbers[name] ?? 0) === 0,
  );

const dayFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
/** A day as the API names it (the owner's local date), formatted at UTC midnight: 'Jun 24'. */
const day = (date: string) => {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) ? date : dayFormat.format(ms);
};

/** "Jun 24 – Jun 30": the days the week's lines sum up. */
export const weekSpan = (insights: Pick<InsightsResponse, 'from' | 'to'>) =>
  `${day(insights.from)} – ${day(insights.to)}`;

/**
 * Today's minutes against the goal, as a bar a screen reader announces as a progress bar
 * ("25 of 60 min"). Past the goal the bar is full and says so.
 */
export function GoalProgress({
  active,
  goal,
  label,
  className,
}: {
  active: number;
  goal: number;
  label: string;
  className?: string;
}) {
  const met = goal > 0 && active >= goal;
  const percent = goal > 0 ? Math.min(100, Math.round((active / goal) * 100)) : 0;
  const words = `${active} of ${goal} min`;
  return (
    <div className={cn('grid gap-1', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <span className="text-base font-semibold tabular-nums">{words}</span>
        {met ? <span className="font-medium text-emerald-700">Goal met</span> : null}
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={goal}
        aria-valuenow={Math.min(active, goal)}
        aria-valuetext={met ? `${words}, goal met` : words}
        className="h-2.5 overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', met ? 'bg-emerald-600' : 'bg-orange-500')}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** "week_avg_minutes" → "week avg minutes". */
const evidenceName = (key: string) => key.replaceAll('_', ' ');

/**
 * A change worth a vet's look, said gently: what changed with its numbers, the evidence by
 * name, and that it is not a diagnosis.
 */
/** Today's heat advice, when the collar's own evidence says it is hot ("Hot today: …"). */
export function HeatAdvice({ heat }: { heat: ActivityResponse['heat_today'] }) {
  if (!heat.hot || !heat.advice) return null;
  return (
    <p
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 font-medium text-amber-900"
      data-heat-advice=""
    >
      <Sun className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {heat.advice}
    </p>
  );
}

export function FlagNote({ flag }: { flag: InsightFlag }) {
  const evidence = Object.entries(flag.evidence).filter(([, v]) => v !== null);
  return (
    <div
      className="grid gap-1 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sky-950"
      data-flag={flag.kind}
    >
      <p className="flex items-start gap-2 font-medium">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {flag.text}
      </p>
      {evidence.length > 0 ? (
        <dl className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs">
          {evidence.map(([name, value]) => (
            <div key={name} className="flex gap-1">
              <dt className="text-sky-900/80">{evidenceName(name)}:</dt>
              <dd className="font-medium tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="text-xs">{flag.note}</p>
    </div>
  );
}
