import { queryOptions, useQuery } from '@tanstack/react-query';
import { historyResponseSchema, type History, type HistoryRange } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { deviceQueryKey } from './get-device';

export async function getDeviceHistory(
  id: string,
  range: HistoryRange,
  signal?: AbortSignal,
): Promise<History> {
  return api.get(
    `/devices/${encodeURIComponent(id)}/history?range=${range}`,
    historyResponseSchema,
    signal,
  );
}

/**
 * GET /api/devices/{id}/history?range=…: min, avg and max per time bucket. The live stream
 * folds each new reading into the '1h' entry (lib/realtime.ts), so the last hour stays live.
 */
export const getDeviceHistoryQueryOptions = (id: string, range: HistoryRange) =>
  queryOptions({
    queryKey: [...deviceQueryKey(id), 'history', range] as const,
    queryFn: ({ signal }) => getDeviceHistory(id, range, signal),
  });

export function useDeviceHistory(
  id: string,
  range: HistoryRange,
  { refetchIntervalMs, enabled = true }: { refetchIntervalMs?: number; enabled?: boolean } = {},
) {
  return useQuery({
    ...getDeviceHistoryQueryOptions(id, range),
    refetchInterval: refetchIntervalMs ?? false,
    enabled,
  });
}
