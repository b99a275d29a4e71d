import { queryOptions, useQuery } from '@tanstack/react-query';
import { backtestResponseSchema, type BacktestResponse } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { deviceQueryKey } from './get-device';

export async function getRiskBacktest(
  id: string,
  days: number,
  signal?: AbortSignal,
): Promise<BacktestResponse> {
  return api.get(
    `/devices/${encodeURIComponent(id)}/risk/backtest?days=${days}`,
    backtestResponseSchema,
    signal,
  );
}

/** The past does not change by the second: kept a few minutes before it is fetched again. */
const BACKTEST_STALE_MS = 5 * 60_000;

/**
 * GET /api/devices/{id}/risk/backtest?days=N: how often the fixed thresholds, and the
 * thresholds with heat risk beside them, would have alerted over the last N days. Under the
 * device's key, so a gap in the live stream or a change of the device fetches it again.
 */
export const getRiskBacktestQueryOptions = (id: string, days: number) =>
  queryOptions({
    queryKey: [...deviceQueryKey(id), 'risk-backtest', days] as const,
    queryFn: ({ signal }) => getRiskBacktest(id, days, signal),
    staleTime: BACKTEST_STALE_MS,
  });

export function useRiskBacktest(id: string, days = 7) {
  return useQuery(getRiskBacktestQueryOptions(id, days));
}
