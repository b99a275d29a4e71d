import { queryOptions, useQuery } from '@tanstack/react-query';
import { latestVitalsResponseSchema, type Reading } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { deviceQueryKey } from './get-device';

export async function getLatestVitals(id: string, signal?: AbortSignal): Promise<Reading | null> {
  const { vitals } = await api.get(
    `/devices/${encodeURIComponent(id)}/vitals/latest`,
    latestVitalsResponseSchema,
    signal,
  );
  return vitals;
}

/** GET /api/devices/{id}/vitals/latest: the reading with the greatest timestamp, or null. */
export const getLatestVitalsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...deviceQueryKey(id), 'vitals', 'latest'] as const,
    queryFn: ({ signal }) => getLatestVitals(id, signal),
  });

export function useLatestVitals(
  id: string,
  { refetchIntervalMs }: { refetchIntervalMs?: number } = {},
) {
  return useQuery({
    ...getLatestVitalsQueryOptions(id),
    refetchInterval: refetchIntervalMs ?? false,
  });
}
