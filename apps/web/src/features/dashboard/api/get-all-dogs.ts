import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminDogsResponseSchema, type AdminDog } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getAllDogs(signal?: AbortSignal): Promise<AdminDog[]> {
  const { dogs } = await api.get('/dogs/all', adminDogsResponseSchema, signal);
  return dogs;
}

export const getAllDogsQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'dogs'], queryFn: ({ signal }) => getAllDogs(signal) });

export function useAllDogs() {
  return useQuery(getAllDogsQueryOptions());
}
