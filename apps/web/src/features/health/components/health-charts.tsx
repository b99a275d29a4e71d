import type { ReactNode } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { LEVEL_LOOK } from '@/components/heat-risk';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LEVELS, type DayPoint } from './health-series';

/*
 * Recharts lives only in this file (and the device history's charts), imported by the health
 * dashboard's lazily loaded route alone: the chart code never reaches the landing page or the
 * other screens. Chart children are never wrapped in fragments (Recharts would not see them).
 */

const HEIGHT = 220;

const COLOURS = {
  vigorous: '#9a3412',
  moderate: '#f97316',
  heat: '#94a3b8',
  goal: '#047857',
  rest: '#7dd3fc',
  sleep: '#1e3a8a',
  heartRate: '#be123c',
  SAFE: '#16a34a',
  WARNING: '#d97706',
  DANGER: '#ea580c',
  CRITICAL: '#b91c1c',
};

const AXIS_TICK = { fontSize: 12, fill: '#475569' };

/** A swatch and its name, for the legend above a chart (readable without hovering). */
function Key({
  colour,
  dashed,
  children,
}: {
  colour: string;
  dashed?: boolean;
  children: ReactNode;
}) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className={dashed ? 'h-0 w-4 border-t-2 border-dashed' : 'size-3 rounded-sm'}
        style={dashed ? { borderColor: colour } : { backgroundColor: colour }}
      />
      {children}
    </span>
  );
}

/** What the value axis counts, said once before the keys. */
const Unit = ({ children }: { children: ReactNode }) => (
  <span className="text-muted-foreground">{children}</span>
);

function ChartCard({
  id,
  title,
  summary,
  keys,
  children,
}: {
  id: string;
  title: string;
  summary: string;
  keys: ReactNode;
  children: ReactNode;
}) {
  const headingId = `health-chart-${id}`;
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader className="pb-2">
        <CardTitle as="h2" id={headingId}>
          {title}
        </CardTitle>
        <CardDescription>{summary}</CardDescription>
        <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">{keys}</p>
      </CardHeader>
      <CardContent className="px-1 pb-4 sm:px-4">
        <div data-testid={`chart-${id}`} style={{ height: HEIGHT }}>
          {children}
        </div>
      </CardContent>
    </Card>
  );
}

/** Few labels on a phone: every day of a week, else about one a week. */
const tickInterval = (points: readonly DayPoint[]) =>
  points.length <= 7 ? 0 : points.length <= 30 ? 6 : 13;

/**
 * A chart of days: the points along the bottom (a tick a day for a week, fewer for longer
 * ranges), a light grid, a whole-number value axis (from 0 unless `yDomain` says otherwise),
 * a tooltip, and `children` (its bars and lines) over them.
 */
function DaysChart({
  points,
  title,
  yDomain,
  children,
}: {
  points: readonly DayPoint[];
  title: string;
  yDomain?: [number | 'auto', number | 'auto'];
  children: ReactNode;
}) {
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <ComposedChart
        data={points as DayPoint[]}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        title={title}
      >
        <CartesianGrid stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" interval={tickInterval(points)} tick={AXIS_TICK} tickLine={false} />
        <YAxis width={36} tick={AXIS_TICK} domain={yDomain ?? [0, 'auto']} allowDecimals={false} />
        <Tooltip />
        {children}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

/** Active minutes a day (vigorous within them), the goal as a line, minutes above Safe apart. */
export function ActivityChart({ points, summary }: { points: DayPoint[]; summary: string }) {
  return (
    <ChartCard
      id="activity"
      title="Activity"
      summary={summary}
      keys={
        <>
          <Unit>Minutes a day:</Unit>
          <Key colour={COLOURS.moderate}>Active</Key>
          <Key colour={COLOURS.vigorous}>of which vigorous</Key>
          <Key colour={COLOURS.heat}>Active above Safe (not counted)</Key>
          <Key colour={COLOURS.goal} dashed>
            Goal
          </Key>
        </>
      }
    >
      <DaysChart points={points} title={`Activity chart. ${summary}`}>
        <Bar
          dataKey="vigorous"
          stackId="active"
          fill={COLOURS.vigorous}
          name="Vigorous (min)"
          isAnimationActive={false}
        />
        <Bar
          dataKey="moderate"
          stackId="active"
          fill={COLOURS.moderate}
          name="Other active (min)"
          isAnimationActive={false}
        />
        <Bar
          dataKey="heat"
          fill={COLOURS.heat}
          name="Active above Safe, not counted (min)"
          isAnimationActive={false}
        />
        <Line
          dataKey="goal"
          type="stepAfter"
          stroke={COLOURS.goal}
          strokeDasharray="6 4"
          strokeWidth={2}
          dot={false}
          name="Goal (min)"
          isAnimationActive={false}
        />
      </DaysChart>
    </ChartCard>
  );
}

/** Rest in the day and sleep at night, in hours a day. */
export function RestChart({ points, summary }: { points: DayPoint[]; summary: string }) {
  return (
    <ChartCard
      id="rest"
      title="Rest and sleep"
      summary={summary}
      keys={
        <>
          <Unit>Hours a day:</Unit>
          <Key colour={COLOURS.rest}>Rest (day)</Key>
          <Key colour={COLOURS.sleep}>Sleep (night)</Key>
        </>
      }
    >
      <DaysChart points={points} title={`Rest and sleep chart. ${summary}`}>
        <Bar
          dataKey="sleepHours"
          stackId="still"
          fill={COLOURS.sleep}
          name="Sleep (h)"
          isAnimationActive={false}
        />
        <Bar
          dataKey="restHours"
          stackId="still"
          fill={COLOURS.rest}
          name="Rest (h)"
          isAnimationActive={false}
        />
      </DaysChart>
    </ChartCard>
  );
}

/** The average heart rate of calm minutes in the day, a day at a time. */
export function HeartRateChart({ points, summary }: { points: DayPoint[]; summary: string }) {
  return (
    <ChartCard
      id="heart-rate"
      title="Resting heart rate"
      summary={summary}
      keys={<Key colour={COLOURS.heartRate}>Resting heart rate (bpm)</Key>}
    >
      <DaysChart
        points={points}
        title={`Resting heart rate chart. ${summary}`}
        yDomain={['auto', 'auto']}
      >
        <Line
          dataKey="restingHeartRate"
          stroke={COLOURS.heartRate}
          strokeWidth={2}
          dot={{ r: 3 }}
          connectNulls
          name="Resting heart rate (bpm)"
          isAnimationActive={false}
        />
      </DaysChart>
    </ChartCard>
  );
}

/** Minutes worn at each level a day, stacked mildest first. */
export function HeatLevelsChart({ points, summary }: { points: DayPoint[]; summary: string }) {
  return (
    <ChartCard
      id="heat-levels"
      title="Time at each heat level"
      summary={summary}
      keys={
        <>
          <Unit>Minutes a day:</Unit>
          {LEVELS.map((level) => (
            <Key key={level} colour={COLOURS[level]}>
              {LEVEL_LOOK[level].word}
            </Key>
          ))}
        </>
      }
    >
      <DaysChart points={points} title={`Time at each heat level chart. ${summary}`}>
        {LEVELS.map((level) => (
          <Bar
            key={level}
            dataKey={level}
            stackId="levels"
            fill={COLOURS[level]}
            name={`${LEVEL_LOOK[level].word} (min)`}
            isAnimationActive={false}
          />
        ))}
      </DaysChart>
    </ChartCard>
  );
}
