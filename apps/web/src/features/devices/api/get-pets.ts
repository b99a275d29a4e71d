import { queryOptions, useQuery } from '@tanstack/react-query';
import { dogsResponseSchema, type Dog } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getPets(signal?: AbortSignal): Promise<Dog[]> {
  const { dogs } = await api.get('/dogs', dogsResponseSchema, signal);
  return dogs;
}

/** The owner's pets, for choosing which one wears a collar (same cache as My Pets). */
export const getPetsQueryOptions = () =>
  queryOptions({ queryKey: ['pets'], queryFn: ({ signal }) => getPets(signal) });

export function usePets() {
  return useQuery(getPetsQueryOptions());
}
