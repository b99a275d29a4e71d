import { queryOptions, useQuery } from '@tanstack/react-query';
import { dogsResponseSchema, type Dog } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getPets(signal?: AbortSignal): Promise<Dog[]> {
  const { dogs } = await api.get('/dogs', dogsResponseSchema, signal);
  return dogs;
}

/**
 * GET /api/dogs: the signed-in owner's pets. One definition for My Pets and the devices
 * screens' pet pickers, so they share one cache entry and one parse.
 */
export const getPetsQueryOptions = () =>
  queryOptions({ queryKey: ['pets'], queryFn: ({ signal }) => getPets(signal) });

export function usePets() {
  return useQuery(getPetsQueryOptions());
}
