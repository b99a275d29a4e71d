import { queryOptions, useQuery } from '@tanstack/react-query';
import { failedMailsResponseSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';

/** GET /api/admin/mail/failed: the mail the server gave up delivering, most recent first. */
export function getFailedMails(signal?: AbortSignal) {
  return api.get('/admin/mail/failed', failedMailsResponseSchema, signal);
}

export const getFailedMailsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'mail', 'failed'] as const,
    queryFn: ({ signal }) => getFailedMails(signal),
  });

/** Requested for admins only (the Admin Portal loads data only for them). */
export function useFailedMails() {
  const { isAdmin } = useAuth();
  return useQuery({ ...getFailedMailsQueryOptions(), enabled: isAdmin });
}
