import { useMutation, useQueryClient } from '@tanstack/react-query';
import { successSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { packKeys } from './get-pack';

export type WithdrawPackInvitationInput = { dogId: string; invitationId: string };

/** DELETE /api/dogs/{id}/pack/invitations/{invitationId}: the owner withdraws an invitation. */
export async function withdrawPackInvitation({
  dogId,
  invitationId,
}: WithdrawPackInvitationInput): Promise<void> {
  await api.delete(
    `/dogs/${encodeURIComponent(dogId)}/pack/invitations/${encodeURIComponent(invitationId)}`,
    successSchema,
  );
}

export function useWithdrawPackInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawPackInvitation,
    onSettled: (_result, _error, { dogId }) =>
      queryClient.invalidateQueries({ queryKey: packKeys.pet(dogId) }),
  });
}
