import { useMutation, useQueryClient } from '@tanstack/react-query';
import { retryMailResponseSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getFailedMailsQueryOptions } from './get-failed-mails';

/** POST /api/admin/mail/{id}/retry: the given-up mail goes back in the queue, sent at once. */
export function retryMail(id: string) {
  return api.post(
    `/admin/mail/${encodeURIComponent(id)}/retry`,
    undefined,
    retryMailResponseSchema,
  );
}

export function useRetryMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryMail,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: getFailedMailsQueryOptions().queryKey }),
  });
}
