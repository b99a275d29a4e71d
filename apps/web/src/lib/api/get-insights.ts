import { queryOptions, useQuery } from '@tanstack/react-query';
import { insightsResponseSchema, type InsightsResponse } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { activityKeys } from './get-activity';

export async function getInsights(dogId: string, signal?: AbortSignal): Promise<InsightsResponse> {
  return api.get(`/dogs/${encodeURIComponent(dogId)}/insights`, insightsResponseSchema, signal);
}

/**
 * GET /api/dogs/{id}/insights: the last 7 whole days against the dog's own 4 weeks before,
 * and the changes worth a vet's look. It changes once a day: no polling.
 */
export const getInsightsQueryOptions = (dogId: string) =>
  queryOptions({
    queryKey: activityKeys.insights(dogId),
    queryFn: ({ signal }) => getInsights(dogId, signal),
    staleTime: 10 * 60_000,
  });

export function useInsights(dogId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getInsightsQueryOptions(dogId), enabled });
}
