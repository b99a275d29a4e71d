import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  pushSubscriptionResponseSchema,
  type PushSubscriptionInput,
  type PushSubscriptionView,
} from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getPushSubscriptionsQueryOptions } from './get-push-subscriptions';

/**
 * POST /api/push/subscriptions: pushes go to this browser (its PushSubscription's JSON). The
 * same browser again replaces its keys, and moves it to whoever is signed in now.
 */
export async function createPushSubscription(
  input: PushSubscriptionInput,
): Promise<PushSubscriptionView> {
  const { subscription } = await api.post(
    '/push/subscriptions',
    input,
    pushSubscriptionResponseSchema,
  );
  return subscription;
}

export function useCreatePushSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPushSubscription,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: getPushSubscriptionsQueryOptions().queryKey }),
  });
}
