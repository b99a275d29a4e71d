import { queryOptions, useQuery } from '@tanstack/react-query';
import { waitlistEntriesResponseSchema, type WaitlistEntry } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/admin/waitlist (admin), newest first. */
export async function getWaitlistEntries(signal?: AbortSignal): Promise<WaitlistEntry[]> {
  const { entries } = await api.get('/admin/waitlist', waitlistEntriesResponseSchema, signal);
  return entries;
}

export const getWaitlistEntriesQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'waitlist'],
    queryFn: ({ signal }) => getWaitlistEntries(signal),
  });

export function useWaitlistEntries() {
  return useQuery(getWaitlistEntriesQueryOptions());
}
