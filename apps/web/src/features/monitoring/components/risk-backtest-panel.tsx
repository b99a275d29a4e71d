import { RISK_HOLD_MS, type BacktestResponse, type VitalsStatus } from '@pawguard/shared';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useRiskBacktest } from '@/lib/api/get-risk-backtest';

const LEVEL_WORDS: Record<VitalsStatus, string> = {
  SAFE: 'Safe',
  WARNING: 'Warning',
  DANGER: 'Danger',
  CRITICAL: 'Critical',
};

const times = (n: number) => `${n} ${n === 1 ? 'time' : 'times'}`;
const lastDays = (days: number) => (days === 1 ? 'the last day' : `the last ${days} days`);

/** 45 → "45 minutes", 90 → "1 h 30 min", 120 → "2 h". */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

const alerts = (n: number) => `${n} ${n === 1 ? 'alert' : 'alerts'}`;
const titleDays = (days: number) => (days === 1 ? 'Last day' : `Last ${days} days`);

/**
 * What it meant for this dog, in one sentence an owner reads at a glance: "Last 7 days: 2
 * alerts the thresholds alone would have missed."
 */
export function backtestSummary(b: BacktestResponse): string {
  if (b.model_only_alerts > 0)
    return `${titleDays(b.days)}: ${alerts(b.model_only_alerts)} the thresholds alone would have missed.`;
  if (b.model.alerts === 0)
    return `${titleDays(b.days)}: no heat alerts, from your thresholds or heat risk.`;
  return `${titleDays(b.days)}: heat risk added no alert to the ${alerts(b.thresholds.alerts)} from your thresholds.`;
}

/** The comparison in one sentence, for the details. */
export function backtestComparison(b: BacktestResponse): string {
  return (
    `Over ${lastDays(b.days)} your thresholds alone would have alerted ${times(b.thresholds.alerts)}; ` +
    `with heat risk beside them, ${times(b.model.alerts)}.`
  );
}

/**
 * The device page's "What heat-risk adds": the collar's own last days replayed, the fixed
 * thresholds alone against the thresholds with the heat-risk model beside them (the higher
 * of the two, as the heat alert follows), so an owner sees what the model changes for them.
 */
export function RiskBacktestPanel({ deviceId, days = 7 }: { deviceId: string; days?: number }) {
  const backtest = useRiskBacktest(deviceId, days);
  const data = backtest.data;
  return (
    <Card role="region" aria-labelledby="risk-backtest-title">
      <CardHeader className="pb-4">
        <CardTitle as="h2" id="risk-backtest-title">
          What heat-risk adds
        </CardTitle>
        <CardDescription>
          Heat risk also weighs exercise, breed and time in the heat, so it can warn before the
          temperature alone would.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {backtest.isPending ? (
          <div role="status" aria-label="Loading the comparison" className="grid gap-2">
            <Skeleton className="h-4 w-full max-w-md" />
            <Skeleton className="h-4 w-64" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : data === undefined ? (
          <p role="alert">
            The comparison could not be loaded
            {backtest.error?.message ? `: ${backtest.error.message}` : ''}.{' '}
            <button
              type="button"
              className="font-medium text-primary underline-offset-4 hover:underline"
              onClick={() => void backtest.refetch()}
            >
              Try Again
            </button>
          </p>
        ) : data.readings === 0 ? (
          <p className="text-muted-foreground">
            No readings in {lastDays(data.days)}, so there is nothing to compare yet. The comparison
            fills in as the collar sends readings.
          </p>
        ) : (
          <>
            <p className="text-base font-medium">{backtestSummary(data)}</p>
            <details>
              <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium">
                Details
              </summary>
              <p className="mb-2">{backtestComparison(data)}</p>
              <div className="overflow-x-auto">
                <table className="w-full min-w-72 text-left">
                  <caption className="sr-only">
                    Fixed thresholds and heat risk over {lastDays(data.days)}
                  </caption>
                  <thead>
                    <tr className="border-b text-muted-foreground">
                      <td className="py-2 pr-3" />
                      <th scope="col" className="py-2 pr-3 font-medium">
                        Fixed thresholds
                      </th>
                      <th scope="col" className="py-2 font-medium">
                        With heat risk
                      </th>
                    </tr>
                  </thead>
                  <tbody className="tabular-nums">
                    <tr className="border-b">
                      <th scope="row" className="py-2 pr-3 font-medium">
                        Alerts
                      </th>
                      <td className="py-2 pr-3">{data.thresholds.alerts}</td>
                      <td className="py-2">{data.model.alerts}</td>
                    </tr>
                    <tr className="border-b">
                      <th scope="row" className="py-2 pr-3 font-medium">
                        Time above safe
                      </th>
                      <td className="py-2 pr-3">
                        {formatMinutes(data.thresholds.minutes_elevated)}
                      </td>
                      <td className="py-2">{formatMinutes(data.model.minutes_elevated)}</td>
                    </tr>
                    <tr>
                      <th scope="row" className="py-2 pr-3 font-medium">
                        Highest level
                      </th>
                      <td className="py-2 pr-3">{LEVEL_WORDS[data.thresholds.highest]}</td>
                      <td className="py-2">{LEVEL_WORDS[data.model.highest]}</td>
                    </tr>
                  </tbody>
                </table>
              </div>
              <p className="text-xs text-muted-foreground">
                {`From ${data.readings.toLocaleString()} ${data.readings === 1 ? 'reading' : 'readings'}.`}{' '}
                Heat risk only ever raises the level: your thresholds alert as before. It holds a
                raised level until the risk has clearly fallen, and for {RISK_HOLD_MS / 60_000}{' '}
                minutes after, so alerts close together can count as one.
              </p>
            </details>
          </>
        )}
      </CardContent>
    </Card>
  );
}
