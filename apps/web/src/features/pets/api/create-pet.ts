import { useMutation, useQueryClient } from '@tanstack/react-query';
import { dogResponseSchema, type Dog, type DogInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getPetsQueryOptions } from '@/lib/api/get-pets';

export async function createPet(input: DogInput): Promise<Dog> {
  const { dog } = await api.post('/dogs', input, dogResponseSchema);
  return dog;
}

export function useCreatePet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPet,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getPetsQueryOptions().queryKey }),
  });
}
