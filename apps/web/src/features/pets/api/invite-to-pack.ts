import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  packInvitationResponseSchema,
  type PackInvitation,
  type PackInvitationInput,
} from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { packKeys } from './get-pack';

export type InviteToPackInput = { dogId: string; data: PackInvitationInput };

/** POST /api/dogs/{id}/pack/invitations: the owner invites someone by e-mail (a mailed link). */
export async function inviteToPack({ dogId, data }: InviteToPackInput): Promise<PackInvitation> {
  const { invitation } = await api.post(
    `/dogs/${encodeURIComponent(dogId)}/pack/invitations`,
    data,
    packInvitationResponseSchema,
  );
  return invitation;
}

export function useInviteToPack() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteToPack,
    onSuccess: (_invitation, { dogId }) =>
      queryClient.invalidateQueries({ queryKey: packKeys.pet(dogId) }),
  });
}
