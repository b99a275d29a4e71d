import { useMutation, useQueryClient } from '@tanstack/react-query';
import { successSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { alertKeys } from '@/lib/api/alerts';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';
import { getPetsQueryOptions } from '@/lib/api/get-pets';
import { packKeys } from './get-pack';

export type RemovePackMemberInput = {
  dogId: string;
  userId: string;
  /** The signed-in person removes themselves: they leave the pack, and the pet their lists. */
  leaving: boolean;
};

/**
 * DELETE /api/dogs/{id}/pack/members/{userId}: the owner removes anyone from the pet's pack; a
 * member removes themselves (leaves).
 */
export async function removePackMember({ dogId, userId }: RemovePackMemberInput): Promise<void> {
  await api.delete(
    `/dogs/${encodeURIComponent(dogId)}/pack/members/${encodeURIComponent(userId)}`,
    successSchema,
  );
}

export function useRemovePackMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePackMember,
    onSuccess: async (_result, { dogId, leaving }) => {
      if (!leaving) {
        await queryClient.invalidateQueries({ queryKey: packKeys.pet(dogId) });
        return;
      }
      // Someone who left sees nothing of the pet any more: its pack, collars and alerts go.
      queryClient.removeQueries({ queryKey: packKeys.pet(dogId) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: getPetsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: alertKeys.all }),
      ]);
    },
  });
}
