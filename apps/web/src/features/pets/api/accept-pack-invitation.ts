import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dogResponseSchema, type Dog } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { alertKeys } from '@/lib/api/alerts';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';
import { getPetsQueryOptions } from '@/lib/api/get-pets';

/**
 * POST /api/pack/accept: the signed-in person joins the pet's pack (the invitation must have
 * been sent to their address; it works once). Answers the pet as they now see it.
 */
export async function acceptPackInvitation(token: string): Promise<Dog> {
  const { dog } = await api.post('/pack/accept', { token }, dogResponseSchema);
  return dog;
}

export function useAcceptPackInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptPackInvitation,
    // The pet, its collars and its alerts join the person's lists.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getPetsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: alertKeys.all }),
      ]),
  });
}
