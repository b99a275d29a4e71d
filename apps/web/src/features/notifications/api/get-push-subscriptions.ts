import { queryOptions, useQuery } from '@tanstack/react-query';
import { pushSubscriptionsResponseSchema, type PushSubscriptionView } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/push/subscriptions: the signed-in person's browsers that take pushes. */
export async function getPushSubscriptions(signal?: AbortSignal): Promise<PushSubscriptionView[]> {
  const { subscriptions } = await api.get(
    '/push/subscriptions',
    pushSubscriptionsResponseSchema,
    signal,
  );
  return subscriptions;
}

export const getPushSubscriptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['push', 'subscriptions'],
    queryFn: ({ signal }) => getPushSubscriptions(signal),
  });

export function usePushSubscriptions() {
  return useQuery(getPushSubscriptionsQueryOptions());
}
