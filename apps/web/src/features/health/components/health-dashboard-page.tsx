import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, Flame, Footprints, Target } from 'lucide-react';
import type { ActivityResponse, Alert, Dog, InsightsResponse } from '@pawguard/shared';
import { ALERT_TYPE_WORDS } from '@/components/alert-actions';
import { acknowledgedWords } from '@/components/alert-acknowledgement';
import { FlagNote, GoalProgress, HeatAdvice, streakWords } from '@/components/dog-activity';
import { LevelWord } from '@/components/dog-status';
import { GoalDialog } from '@/components/goal-dialog';
import { LEVEL_LOOK } from '@/components/heat-risk';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { HEALTH_RANGES, paths, type HealthRange } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { ACTIVITY_REFRESH_MS, useActivity } from '@/lib/api/get-activity';
import { useInsights } from '@/lib/api/get-insights';
import { usePets } from '@/lib/api/get-pets';
import { petRights } from '@/lib/pet-rights';
import { useDisplayUnits } from '@/lib/display-units';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useAlertsSince } from '../api/get-dog-alerts';
import { ActivityChart, HeartRateChart, HeatLevelsChart, RestChart } from './health-charts';
import {
  LEVELS,
  alertsInRange,
  dayLabel,
  formatMinutes,
  hasReadings,
  rangeSummary,
  toDayPoints,
  walksNewestFirst,
} from './health-series';

const isRange = (value: number): value is HealthRange =>
  (HEALTH_RANGES as readonly number[]).includes(value);

/** The range in the address (?days=7|30|90), else a week. */
export function rangeFrom(params: URLSearchParams): HealthRange {
  const days = Number(params.get('days'));
  return isRange(days) ? days : HEALTH_RANGES[0];
}

/** Walks listed before "Show all". */
const WALKS_SHOWN = 10;

/**
 * A dog's health dashboard (issue "activity, goals, health dashboard and insights"): its
 * activity against the goal, rest and sleep, resting heart rate, time at each heat level, its
 * walks and its alerts over 7, 30 or 90 days, with the week's insights. Days are the owner's
 * (the API cuts them in the account's time zone).
 */
export function HealthDashboardPage({ dogId }: { dogId: string }) {
  const [params, setParams] = useSearchParams();
  const days = rangeFrom(params);
  const activity = useActivity(dogId, days, { refetchIntervalMs: ACTIVITY_REFRESH_MS });
  const insights = useInsights(dogId, { enabled: activity.isSuccess });
  const pets = usePets();
  // The owner's own pets name the dog; an admin looking at another's sees it unnamed.
  const pet = pets.data?.find((p) => p.id === dogId);
  const title = pet ? `${pet.name}'s health` : 'Health dashboard';
  useDocumentTitle(title);

  const notFound = activity.error instanceof ApiError && activity.error.status === 404;
  const setRange = (range: HealthRange) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (range === HEALTH_RANGES[0]) next.delete('days');
        else next.set('days', String(range));
        return next;
      },
      { replace: true },
    );

  return (
    <section aria-labelledby="page-title">
      <Link
        to={paths.myPets}
        className="mb-3 inline-flex items-center gap-1 rounded-md text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        My Pets
      </Link>
      <PageHeader
        title={title}
        description={
          activity.data
            ? `Activity, rest, heart rate and heat over the last ${days} days (days in ${activity.data.time_zone.replaceAll('_', ' ')}).`
            : 'Activity, rest, heart rate and heat, day by day.'
        }
      />
      {notFound ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
            <h2 className="text-lg font-semibold">Pet not found</h2>
            <p className="max-w-sm text-sm text-muted-foreground">
              This pet does not exist or is not one of yours.
            </p>
            <Button asChild variant="outline">
              <Link to={paths.myPets}>Back to My Pets</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <div className="grid gap-6">
          <RangeButtons value={days} onChange={setRange} />
          {activity.isError ? (
            <LoadError
              heading
              title="The health dashboard could not be loaded"
              message={activity.error.message}
              onRetry={() => void activity.refetch()}
            />
          ) : activity.data ? (
            <HealthContent
              dogId={dogId}
              pet={pet}
              days={days}
              activity={activity.data}
              insights={insights.data}
              insightsFailed={
                insights.isError
                  ? { message: insights.error.message, retry: () => void insights.refetch() }
                  : null
              }
            />
          ) : (
            <div aria-busy="true" aria-label="Loading the health dashboard" className="grid gap-4">
              <Skeleton className="h-32 rounded-xl" />
              <Skeleton className="h-64 rounded-xl" />
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/** 7, 30 or 90 days: buttons (Tab and Enter or Space), the one shown pressed. */
function RangeButtons({
  value,
  onChange,
}: {
  value: HealthRange;
  onChange: (range: HealthRange) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Range"
      className="inline-flex w-full gap-1 rounded-lg bg-muted p-1 sm:w-auto sm:self-start"
    >
      {HEALTH_RANGES.map((range) => (
        <button
          key={range}
          type="button"
          aria-pressed={value === range}
          onClick={() => onChange(range)}
          className={cn(
            'inline-flex min-h-11 flex-1 items-center justify-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:flex-none',
            value === range && 'bg-card text-foreground shadow-sm',
          )}
        >
          {range} days
        </button>
      ))}
    </div>
  );
}

function HealthContent({
  dogId,
  pet,
  days,
  activity,
  insights,
  insightsFailed,
}: {
  dogId: string;
  pet: Dog | undefined;
  days: HealthRange;
  activity: ActivityResponse;
  insights: InsightsResponse | undefined;
  /** The week's insights could not be read: say so, with Try Again. */
  insightsFailed: { message: string; retry: () => void } | null;
}) {
  const name = pet?.name ?? 'This dog';
  const summary = rangeSummary(activity.days);
  const points = toDayPoints(activity.days);
  const round = (n: number | null) => (n === null ? null : Math.round(n));
  const hr = summary.heartRate;
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        <TodayCard
          dogId={dogId}
          name={name}
          // Its owner and co-owners set the goal; a caregiver sees it.
          canEditGoal={pet !== undefined && petRights(pet).manage}
          activity={activity}
        />
        <WeekCard insights={insights} failed={insightsFailed} />
      </div>
      {hasReadings(activity.days) ? (
        <>
          <div className="grid gap-4 lg:grid-cols-2">
            <ActivityChart
              points={points}
              summary={`${round(summary.averageActive)} active minutes a day on average; goal met on ${summary.metDays} of ${days} days${summary.heatDays ? `, ${summary.heatDays} hot ${summary.heatDays === 1 ? 'day' : 'days'} kept in` : ''}. ${summary.heatMinutes} active minutes above Safe, not counted.`}
            />
            <RestChart
              points={points}
              summary={`${formatMinutes(summary.averageRest ?? 0)} of rest in the day and ${formatMinutes(summary.averageSleep ?? 0)} of sleep at night on average.`}
            />
            <HeartRateChart
              points={points}
              summary={
                hr.average === null
                  ? 'No resting heart rate over these days: the collar reported none while the dog rested.'
                  : `${Math.round(hr.average)} bpm on average while calm; from ${Math.round(hr.first ?? hr.average)} to ${Math.round(hr.last ?? hr.average)} bpm over the range.`
              }
            />
            <HeatLevelsChart
              points={points}
              summary={LEVELS.map(
                (level) => `${LEVEL_LOOK[level].word} ${formatMinutes(summary.levelTotals[level])}`,
              ).join(' · ')}
            />
          </div>
          <WalksCard activity={activity} />
        </>
      ) : (
        <Card data-empty="">
          <CardContent className="flex flex-col items-center gap-2 p-10 text-center">
            <Footprints className="size-8 text-orange-600" aria-hidden="true" />
            <h2 className="text-lg font-semibold">No activity yet</h2>
            <p className="max-w-md text-sm text-muted-foreground">
              {name}&apos;s collar has sent no readings in the last {days} days. Activity, rest,
              heart rate and heat appear here once it does.
            </p>
          </CardContent>
        </Card>
      )}
      <AlertsCard dogId={dogId} days={days} />
    </>
  );
}

/** Today against the goal, the streak, and the heat advice on a hot day. */
function TodayCard({
  dogId,
  name,
  canEditGoal,
  activity,
}: {
  dogId: string;
  name: string;
  canEditGoal: boolean;
  activity: ActivityResponse;
}) {
  const [editing, setEditing] = useState(false);
  const today = activity.days.at(-1);
  const { goal, streak, heat_today: heat } = activity;
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle as="h2">Today</CardTitle>
        <CardDescription>
          Goal {goal.active_minutes} min a day
          {goal.source === 'owner' ? ' (yours)' : ' (suggested)'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <GoalProgress
          active={today?.active_minutes ?? 0}
          goal={today?.goal_minutes ?? goal.active_minutes}
          label={`${name}'s activity today`}
        />
        <p data-streak="">
          <Flame className="mr-1 inline size-4 align-[-3px] text-orange-600" aria-hidden="true" />
          Streak: {streakWords(streak.current)} · best {streak.best}
        </p>
        <HeatAdvice heat={heat} />
        {canEditGoal ? (
          <>
            <div>
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Target aria-hidden="true" />
                Edit goal
              </Button>
            </div>
            <GoalDialog
              dogId={dogId}
              dogName={name}
              goal={goal}
              open={editing}
              onOpenChange={setEditing}
            />
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The last 7 whole days against the 4 weeks before, and any change worth a vet's look. */
function WeekCard({
  insights,
  failed,
}: {
  insights: InsightsResponse | undefined;
  failed: { message: string; retry: () => void } | null;
}) {
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle as="h2">This week</CardTitle>
        {insights ? (
          <CardDescription>
            {dayLabel(insights.from, 'full')} to {dayLabel(insights.to, 'full')}, against the 4
            weeks before.
          </CardDescription>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {insights ? (
          <>
            <ul className="grid list-disc gap-1 pl-5">
              {insights.insights.map((insight) => (
                <li key={insight.kind}>{insight.text}</li>
              ))}
            </ul>
            {insights.flags.map((flag) => (
              <FlagNote key={flag.kind} flag={flag} />
            ))}
          </>
        ) : failed ? (
          <LoadError
            title="This week's summary could not be loaded"
            message={failed.message}
            onRetry={failed.retry}
          />
        ) : (
          <Skeleton className="h-16 rounded-lg" />
        )}
      </CardContent>
    </Card>
  );
}

function WalksCard({ activity }: { activity: ActivityResponse }) {
  const units = useDisplayUnits();
  const [all, setAll] = useState(false);
  const walks = walksNewestFirst(activity.days);
  const shown = all ? walks : walks.slice(0, WALKS_SHOWN);
  return (
    <Card aria-labelledby="health-walks">
      <CardHeader className="pb-2">
        <CardTitle as="h2" id="health-walks">
          Walks
        </CardTitle>
        <CardDescription>
          {walks.length === 0
            ? 'No walks over these days: a walk is at least 10 minutes of activity.'
            : `${walks.length} ${walks.length === 1 ? 'walk' : 'walks'}, newest first.`}
        </CardDescription>
      </CardHeader>
      {walks.length > 0 ? (
        <CardContent className="grid gap-3">
          <ul className="divide-y rounded-lg border">
            {shown.map((walk) => (
              <li
                key={walk.start}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm"
              >
                <span>
                  <span className="font-medium">{dayLabel(walk.date, 'full')}</span>{' '}
                  <time dateTime={walk.start}>{units.time(walk.start)}</time> ·{' '}
                  {formatMinutes(walk.minutes)}
                </span>
                <span className="flex items-center gap-2 text-muted-foreground">
                  {walk.peak_heat_index_c === null
                    ? null
                    : `Heat index up to ${units.temperature(walk.peak_heat_index_c)}`}
                  <LevelWord level={walk.peak_level} stale={false} collarOff={false} size="sm" />
                </span>
              </li>
            ))}
          </ul>
          {walks.length > WALKS_SHOWN ? (
            <div>
              <Button variant="outline" size="sm" onClick={() => setAll(!all)}>
                {all ? 'Show fewer walks' : `Show all ${walks.length} walks`}
              </Button>
            </div>
          ) : null}
        </CardContent>
      ) : null}
    </Card>
  );
}

/** What an alert was, in a few words: 'Danger heat alert', 'Offline alert'. */
const alertWords = (alert: Alert) =>
  alert.type === 'heat' && alert.level
    ? `${LEVEL_LOOK[alert.level].word} heat alert`
    : `${ALERT_TYPE_WORDS[alert.type].replace('?', '')} alert`;

function AlertsCard({ dogId, days }: { dogId: string; days: HealthRange }) {
  const units = useDisplayUnits();
  const query = useAlertsSince(days);
  // Judged against the time the list was fetched, so it does not shift while shown.
  const alerts = query.data ? alertsInRange(query.data, dogId, days, query.dataUpdatedAt) : [];
  return (
    <Card aria-labelledby="health-alerts">
      <CardHeader className="pb-2">
        <CardTitle as="h2" id="health-alerts">
          Alerts
        </CardTitle>
        <CardDescription>
          {query.isPending
            ? 'Loading…'
            : query.isError
              ? 'The alerts could not be loaded just now.'
              : alerts.length === 0
                ? `No alerts in the last ${days} days.`
                : `${alerts.length} in the last ${days} days, newest first.`}
        </CardDescription>
      </CardHeader>
      {alerts.length > 0 ? (
        <CardContent>
          <ul className="divide-y rounded-lg border">
            {alerts.map((alert) => (
              <li
                key={alert.id}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm"
                data-alert-type={alert.type}
              >
                <span className="font-medium">{alertWords(alert)}</span>
                <span className="text-muted-foreground">
                  <time dateTime={alert.opened_at}>{units.dateTime(alert.opened_at)}</time> ·{' '}
                  {alert.resolved ? 'Resolved' : 'Open'}
                  {alert.acknowledged_at
                    ? ` · ${acknowledgedWords(alert, query.dataUpdatedAt, units)}`
                    : null}
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
    </Card>
  );
}
