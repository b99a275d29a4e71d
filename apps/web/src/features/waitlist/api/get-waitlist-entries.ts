import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, waitlistEntriesResponseSchema, type WaitlistEntry } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export const WAITLIST_PAGE_SIZE = LIMITS.pageSize;

export interface WaitlistPage {
  entries: WaitlistEntry[];
  total: number;
}

/** GET /api/admin/waitlist (admin), newest first, one page of at most 100. */
export function getWaitlistEntries(page: number, signal?: AbortSignal): Promise<WaitlistPage> {
  const offset = page * WAITLIST_PAGE_SIZE;
  return api.get(
    `/admin/waitlist?limit=${WAITLIST_PAGE_SIZE}&offset=${offset}`,
    waitlistEntriesResponseSchema,
    signal,
  );
}

export const getWaitlistEntriesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'waitlist', page],
    queryFn: ({ signal }) => getWaitlistEntries(page, signal),
    // Keep showing the current page while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useWaitlistEntries(page: number) {
  return useQuery(getWaitlistEntriesQueryOptions(page));
}
