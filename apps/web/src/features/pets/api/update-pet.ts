import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dogResponseSchema, type Dog, type DogInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getPetsQueryOptions } from '@/lib/api/get-pets';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';

export type UpdatePetInput = { id: string; data: DogInput };

export async function updatePet({ id, data }: UpdatePetInput): Promise<Dog> {
  const { dog } = await api.put(`/dogs/${encodeURIComponent(id)}`, data, dogResponseSchema);
  return dog;
}

export function useUpdatePet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePet,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getPetsQueryOptions().queryKey }),
        // Collars carry their pet's name.
        queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
      ]),
  });
}
