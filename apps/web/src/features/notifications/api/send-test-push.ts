import { useMutation, useQueryClient } from '@tanstack/react-query';
import { pushTestResponseSchema, type PushTestResponse } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getPushSubscriptionsQueryOptions } from './get-push-subscriptions';

/** POST /api/push/test: a test push to each of the signed-in person's browsers, now. */
export function sendTestPush(): Promise<PushTestResponse> {
  return api.post('/push/test', undefined, pushTestResponseSchema);
}

export function useSendTestPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestPush,
    // A browser its push service no longer knows is dropped on the way.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: getPushSubscriptionsQueryOptions().queryKey }),
  });
}
