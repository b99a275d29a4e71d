import { useMemo } from 'react';
import { LEVEL_LOOK } from '@/components/heat-risk';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type DotItemDotProps,
  type TooltipContentProps,
} from 'recharts';
import {
  celsiusIn,
  fahrenheitIn,
  formatOneDecimal,
  formatTemperatureIn,
  type History,
  type HistoryRange,
  isVitalsStatus,
  type TemperatureUnit,
} from '@pawguard/shared';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useDisplayUnits } from '@/lib/display-units';
import {
  formatBucketTime,
  formatTick,
  seriesSummary,
  timeTicks,
  toChartPoints,
  type ChartPoint,
  type SeriesName,
  valueAxis,
} from './history-series';

/*
 * Recharts lives only in this file and the history screen that imports it, so its code is
 * part of that lazily loaded route alone. Chart children are never wrapped in fragments:
 * Recharts recognises those through react-is, whose React 19 edition it may not resolve.
 */

const COLOURS = {
  temperature: '#c2410c',
  humidity: '#0369a1',
  heart_rate: '#be123c',
  warning: '#b45309',
  critical: '#b91c1c',
};

const HEIGHT = 220;

type SeriesLook = {
  series: SeriesName;
  title: string;
  /** The series in a sentence: 'No heart rate readings …'. */
  noun: string;
  unit: string;
  avgKey: keyof ChartPoint;
  rangeKey: keyof ChartPoint;
  /** What the series can be at all, the value axis's outer bounds. */
  limits?: readonly [number, number];
  /** Text for one value (in the chart's unit) in tooltips and summaries. */
  format: (v: number) => string;
  /** A stored value (°C for temperature) in the chart's unit. */
  toChart: (v: number) => number;
};

/** Temperature in the owner's unit, with the other beside it in the words. */
const temperatureLook = (unit: TemperatureUnit): SeriesLook => ({
  series: 'temperature',
  title: 'Temperature',
  noun: 'temperature',
  unit: unit === 'C' ? '°C' : '°F',
  avgKey: 'temperature',
  rangeKey: 'temperatureRange',
  format: (v) => formatTemperatureIn(v, unit),
  toChart: (c) => celsiusIn(c, unit),
});

const same = (v: number) => v;

const LOOKS: Record<Exclude<SeriesName, 'temperature'>, SeriesLook> = {
  humidity: {
    series: 'humidity',
    title: 'Humidity',
    noun: 'humidity',
    unit: '%',
    avgKey: 'humidity',
    rangeKey: 'humidityRange',
    limits: [0, 100],
    format: (v) => `${formatOneDecimal(v)}%`,
    toChart: same,
  },
  heart_rate: {
    series: 'heart_rate',
    title: 'Heart rate (bpm)',
    noun: 'heart rate',
    unit: '',
    avgKey: 'heartRate',
    rangeKey: 'heartRateRange',
    limits: [0, Infinity],
    format: (v) => `${Math.round(v)} bpm`,
    toChart: same,
  },
};

const RANGE_WORDS: Record<HistoryRange, string> = {
  '1h': 'the last hour',
  '24h': 'the last 24 hours',
  '7d': 'the last 7 days',
};

/** The summary a screen reader hears in place of the drawing, and everyone sees under the title. */
function summaryText(history: History, look: SeriesLook): string | null {
  const summary = seriesSummary(history, look.series);
  if (!summary) return null;
  const f = look.toChart;
  return `Average ${look.format(f(summary.avg))}; lowest ${look.format(f(summary.min))}, highest ${look.format(f(summary.max))} over ${RANGE_WORDS[history.range]}.`;
}

function ChartTooltip({
  active,
  payload,
  look,
  range,
  bucketSeconds,
  timeZone,
}: Pick<TooltipContentProps<number, string>, 'active' | 'payload'> & {
  look: SeriesLook;
  range: HistoryRange;
  bucketSeconds: number;
  timeZone: string | null;
}) {
  const point = payload?.[0]?.payload as ChartPoint | undefined;
  if (!active || !point) return null;
  const avg = point[look.avgKey] as number | null;
  const band = point[look.rangeKey] as [number, number] | null;
  return (
    <div className="rounded-md border bg-card px-3 py-2 text-sm shadow-md">
      <p className="font-medium">{formatBucketTime(point.t, range, bucketSeconds, timeZone)}</p>
      {avg === null ? (
        <p className="text-muted-foreground">No readings</p>
      ) : (
        <>
          <p>Average {look.format(avg)}</p>
          {band ? (
            <p className="text-muted-foreground">
              {look.format(band[0])} – {look.format(band[1])}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

/** A heat alert's time span, drawn as a shaded band on the temperature chart. */
export type AlertPeriod = { from: number; to: number; level: string };

const PERIOD_FILL: Record<string, string> = {
  WARNING: '#f59e0b',
  DANGER: '#ea580c',
  CRITICAL: '#dc2626',
};

/** Alert bands labelled on the chart; with more, a caption says what the shading is. */
const MAX_LABELLED_PERIODS = 2;

function SeriesChart({
  history,
  points,
  look,
  periods = [],
}: {
  history: History;
  points: ChartPoint[];
  look: SeriesLook;
  periods?: readonly AlertPeriod[];
}) {
  const from = Date.parse(history.from);
  const to = Date.parse(history.to);
  // The thresholds are °F (the settings screen's unit); drawn in the chart's. Times are in
  // the account's zone.
  const { temperatureUnit: unit, timeZone } = useDisplayUnits();
  const ticks = useMemo(
    () => timeTicks(from, to, history.range, timeZone),
    [from, to, history.range, timeZone],
  );
  const summary = summaryText(history, look);
  const colour = COLOURS[look.series];
  const headingId = `chart-${look.series}`;
  // A value with no neighbour (readings further apart than the line bridges) is a dot.
  const valueAt = (i: number) => points[i]?.[look.avgKey] ?? null;
  const isolatedDot = ({ index, cx, cy }: DotItemDotProps) =>
    valueAt(index) !== null && valueAt(index - 1) === null && valueAt(index + 1) === null ? (
      <circle key={index} cx={cx} cy={cy} r={3} fill={colour} />
    ) : (
      <g key={index} />
    );
  const shownPeriods = periods.filter((p) => p.to > from && p.from < to);
  const isTemperature = look.series === 'temperature';
  const { warning, critical } = history.thresholds;
  const thresholdLines = isTemperature
    ? [
        { name: 'Warning', y: fahrenheitIn(warning, unit), stroke: COLOURS.warning },
        { name: 'Critical', y: fahrenheitIn(critical, unit), stroke: COLOURS.critical },
      ]
    : [];
  const axis = valueAxis(
    points,
    look.rangeKey,
    thresholdLines.map((line) => line.y),
    look.limits,
  );

  return (
    <Card aria-labelledby={headingId}>
      <CardHeader className="pb-2">
        <CardTitle as="h3" id={headingId}>
          {look.title}
        </CardTitle>
        <CardDescription>
          {summary ?? `No ${look.noun} readings over ${RANGE_WORDS[history.range]}.`}
        </CardDescription>
        {shownPeriods.length > MAX_LABELLED_PERIODS ? (
          <p className="text-sm text-muted-foreground">
            Shaded: the {shownPeriods.length} heat alerts over {RANGE_WORDS[history.range]}.
          </p>
        ) : null}
        {isTemperature ? (
          <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {thresholdLines.map((line) => (
              <span key={line.name} className="inline-flex items-center gap-1.5">
                <span
                  className="h-0 w-4 border-t-2 border-dashed"
                  style={{ borderColor: line.stroke }}
                  aria-hidden="true"
                />
                {line.name} {look.format(line.y)}
              </span>
            ))}
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="px-2 pb-4 sm:px-4">
        {summary === null ? null : (
          <div data-testid={`chart-${look.series}`} style={{ height: HEIGHT }}>
            <ResponsiveContainer width="100%" height={HEIGHT}>
              <ComposedChart
                data={points}
                margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
                title={`${look.title} chart. ${summary}`}
              >
                <CartesianGrid stroke="#e2e8f0" vertical={false} />
                <XAxis
                  dataKey="t"
                  type="number"
                  scale="time"
                  domain={[from, to]}
                  ticks={ticks}
                  tickFormatter={(t: number) => formatTick(t, history.range, timeZone)}
                  tick={{ fontSize: 12, fill: '#475569' }}
                  minTickGap={12}
                />
                <YAxis
                  width={52}
                  unit={look.unit}
                  domain={axis?.domain ?? ['auto', 'auto']}
                  {...(axis ? { ticks: axis.ticks } : {})}
                  tick={{ fontSize: 12, fill: '#475569' }}
                  allowDecimals={false}
                />
                <Tooltip
                  content={(props) => (
                    <ChartTooltip
                      active={props.active}
                      payload={props.payload}
                      look={look}
                      range={history.range}
                      bucketSeconds={history.bucket_seconds}
                      timeZone={timeZone}
                    />
                  )}
                />
                <Area
                  dataKey={look.rangeKey}
                  stroke="none"
                  fill={colour}
                  fillOpacity={0.15}
                  isAnimationActive={false}
                  activeDot={false}
                  name={`${look.title} range`}
                />
                <Line
                  dataKey={look.avgKey}
                  stroke={colour}
                  strokeWidth={2}
                  dot={isolatedDot}
                  isAnimationActive={false}
                  name={`${look.title} average`}
                />
                {/* Heat alerts, as bands over the time they were open (clipped to the range). */}
                {shownPeriods.map((p) => (
                  <ReferenceArea
                    key={`${p.from}-${p.level}`}
                    x1={Math.max(p.from, from)}
                    x2={Math.min(p.to, to)}
                    fill={PERIOD_FILL[p.level] ?? PERIOD_FILL.WARNING}
                    fillOpacity={0.12}
                    ifOverflow="hidden"
                    // Anchored at the band's outer edge and written towards the middle of
                    // the range, so that a band at either end keeps its label in the chart.
                    // Labelled while there is room; more bands than that would write their
                    // labels over each other, and the caption above names them instead.
                    label={
                      shownPeriods.length > MAX_LABELLED_PERIODS
                        ? undefined
                        : {
                            value: `${isVitalsStatus(p.level) ? LEVEL_LOOK[p.level].word : p.level} alert`,
                            position:
                              Math.max(p.from, from) + Math.min(p.to, to) > from + to
                                ? 'insideTopRight'
                                : 'insideTopLeft',
                            fontSize: 11,
                          }
                    }
                  />
                ))}
                {/* The owner's thresholds, kept in view by the axis (valueAxis). */}
                {thresholdLines.map((line) => (
                  <ReferenceLine
                    key={line.name}
                    y={line.y}
                    stroke={line.stroke}
                    strokeDasharray="6 4"
                    ifOverflow="extendDomain"
                  />
                ))}
              </ComposedChart>
            </ResponsiveContainer>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** Temperature (with the owner's warning and critical thresholds), humidity and heart rate. */
export function HistoryCharts({
  history,
  alertPeriods,
}: {
  history: History;
  /** Heat alerts to mark on the temperature chart. */
  alertPeriods?: readonly AlertPeriod[];
}) {
  const { temperatureUnit } = useDisplayUnits();
  const points = useMemo(() => toChartPoints(history, temperatureUnit), [history, temperatureUnit]);
  const temperature = useMemo(() => temperatureLook(temperatureUnit), [temperatureUnit]);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <SeriesChart
          history={history}
          points={points}
          look={temperature}
          {...(alertPeriods ? { periods: alertPeriods } : {})}
        />
      </div>
      <SeriesChart history={history} points={points} look={LOOKS.humidity} />
      <SeriesChart history={history} points={points} look={LOOKS.heart_rate} />
    </div>
  );
}
