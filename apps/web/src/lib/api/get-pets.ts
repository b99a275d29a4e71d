import { queryOptions, useQuery } from '@tanstack/react-query';
import { dogsResponseSchema, type Dog } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { fetchAllPages, pagePath } from '@/lib/paged-list';

/** Every one of the owner's pets: all pages (an owner's pets are few). */
export async function getPets(signal?: AbortSignal): Promise<Dog[]> {
  return fetchAllPages(async (offset, s) => {
    const page = await api.get(pagePath('/dogs', offset), dogsResponseSchema, s);
    return { rows: page.dogs, total: page.total };
  }, signal);
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
