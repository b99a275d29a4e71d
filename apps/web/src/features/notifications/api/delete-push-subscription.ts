import { useMutation, useQueryClient } from '@tanstack/react-query';
import { successSchema, type PushUnsubscribeInput } from '@pawguard/shared';
import { apiRequest } from '@/lib/api-client';
import { getPushSubscriptionsQueryOptions } from './get-push-subscriptions';

/** DELETE /api/push/subscriptions: no more pushes to this browser (named by its endpoint). */
export async function deletePushSubscription(input: PushUnsubscribeInput): Promise<void> {
  await apiRequest('/push/subscriptions', {
    method: 'DELETE',
    body: input,
    schema: successSchema,
  });
}

export function useDeletePushSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePushSubscription,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: getPushSubscriptionsQueryOptions().queryKey }),
  });
}
