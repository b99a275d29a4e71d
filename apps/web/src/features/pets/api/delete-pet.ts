import { useMutation, useQueryClient } from '@tanstack/react-query';
import { successSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getPetsQueryOptions } from '@/lib/api/get-pets';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';

export async function deletePet(id: string): Promise<void> {
  await api.delete(`/dogs/${encodeURIComponent(id)}`, successSchema);
}

export function useDeletePet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePet,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getPetsQueryOptions().queryKey }),
        // The pet's collars stay with the owner, off the pet.
        queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
      ]),
  });
}
