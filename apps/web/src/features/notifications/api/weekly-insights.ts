import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { weeklyInsightsSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';

const weeklyInsightsKey = ['notifications', 'weekly-insights'] as const;

export async function getWeeklyInsights(signal?: AbortSignal): Promise<boolean> {
  const { weekly_insights } = await api.get(
    '/notifications/weekly-insights',
    weeklyInsightsSchema,
    signal,
  );
  return weekly_insights;
}

/** GET /api/notifications/weekly-insights: whether the weekly insights mail is on (off unless chosen). */
export const getWeeklyInsightsQueryOptions = () =>
  queryOptions({ queryKey: weeklyInsightsKey, queryFn: ({ signal }) => getWeeklyInsights(signal) });

export function useWeeklyInsights() {
  return useQuery(getWeeklyInsightsQueryOptions());
}

/** PUT /api/notifications/weekly-insights: turns the mail on or off. */
export function useSetWeeklyInsights() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (on: boolean) => {
      const { weekly_insights } = await api.put(
        '/notifications/weekly-insights',
        { weekly_insights: on },
        weeklyInsightsSchema,
      );
      return weekly_insights;
    },
    onSuccess: (on) => queryClient.setQueryData(weeklyInsightsKey, on),
  });
}
