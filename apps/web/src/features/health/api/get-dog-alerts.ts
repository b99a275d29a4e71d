import { queryOptions, useQuery } from '@tanstack/react-query';
import { alertsResponseSchema, type Alert } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { pagePath } from '@/lib/paged-list';

/** At most this many pages of 100 are read back: an admin's list spans every collar. */
const MAX_PAGES = 5;

/**
 * The caller's alerts (GET /api/alerts, newest first) opened since `since` (epoch ms): pages
 * are read until one reaches back past it. The health dashboard keeps one dog's of them.
 */
export async function getAlertsSince(since: number, signal?: AbortSignal): Promise<Alert[]> {
  const alerts: Alert[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const { alerts: rows, total } = await api.get(
      pagePath('/alerts?limit=100', alerts.length),
      alertsResponseSchema,
      signal,
    );
    alerts.push(...rows);
    const oldest = rows.at(-1);
    if (!oldest || alerts.length >= total || Date.parse(oldest.opened_at) < since) break;
  }
  return alerts.filter((a) => Date.parse(a.opened_at) >= since);
}

/** Under ['alerts'], so the live stream's alert events refresh it with the others. */
export const getAlertsSinceQueryOptions = (days: number) =>
  queryOptions({
    queryKey: ['alerts', 'since', days] as const,
    queryFn: ({ signal }) => getAlertsSince(Date.now() - days * 86_400_000, signal),
  });

export function useAlertsSince(days: number) {
  return useQuery(getAlertsSinceQueryOptions(days));
}
