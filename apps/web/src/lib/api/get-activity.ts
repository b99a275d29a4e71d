import { queryOptions, useQuery } from '@tanstack/react-query';
import { activityResponseSchema, type ActivityResponse } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** Every activity and insights query of a dog lives under ['activity', dogId]. */
export const activityKeys = {
  dog: (dogId: string) => ['activity', dogId] as const,
  /** Every range of the dog's days (the card's 7, the dashboard's 30 or 90), not its insights. */
  allDays: (dogId: string) => ['activity', dogId, 'days'] as const,
  days: (dogId: string, days: number) => ['activity', dogId, 'days', days] as const,
  insights: (dogId: string) => ['activity', dogId, 'insights'] as const,
};

/**
 * Today's figure moves as a walk's readings arrive (the server folds them in within about a
 * minute): a card or dashboard showing today asks again this often.
 */
export const ACTIVITY_REFRESH_MS = 60_000;

export async function getActivity(
  dogId: string,
  days: number,
  signal?: AbortSignal,
): Promise<ActivityResponse> {
  return api.get(
    `/dogs/${encodeURIComponent(dogId)}/activity?days=${days}`,
    activityResponseSchema,
    signal,
  );
}

/**
 * GET /api/dogs/{id}/activity?days=1–90: the dog's days in its owner's time zone, oldest
 * first and ending today, with the goal, the streak and today's heat advice. The dog's card
 * asks for 7 days, the health dashboard's first range, so both share one entry.
 */
export const getActivityQueryOptions = (dogId: string, days: number) =>
  queryOptions({
    queryKey: activityKeys.days(dogId, days),
    queryFn: ({ signal }) => getActivity(dogId, days, signal),
  });

export function useActivity(
  dogId: string,
  days: number,
  { enabled = true, refetchIntervalMs }: { enabled?: boolean; refetchIntervalMs?: number } = {},
) {
  return useQuery({
    ...getActivityQueryOptions(dogId, days),
    enabled,
    refetchInterval: refetchIntervalMs ?? false,
    // Asked again every minute and as the collar's readings arrive (live-cache.ts); a page of
    // many dog cards asking all at once on every return to the tab would spend the account's
    // chart reads (decision 0046) for nothing.
    refetchOnWindowFocus: false,
  });
}
