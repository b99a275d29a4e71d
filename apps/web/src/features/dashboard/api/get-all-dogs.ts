import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminDogsResponseSchema, type AdminDog } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { fetchAllPages, pagePath } from '@/lib/paged-list';

const allDogsPath = (userId?: string) =>
  userId ? `/dogs/all?user_id=${encodeURIComponent(userId)}` : '/dogs/all';

async function getDogsPage(path: string, offset: number, signal?: AbortSignal) {
  const page = await api.get(pagePath(path, offset), adminDogsResponseSchema, signal);
  return { rows: page.dogs, total: page.total };
}

export const getAllDogsQueryOptions = () => queryOptions({ queryKey: ['admin', 'dogs'] });

/** How many pets there are on the platform (one row read: the total is what counts). */
export function usePetTotal() {
  return useQuery({
    queryKey: [...getAllDogsQueryOptions().queryKey, 'total'],
    queryFn: async ({ signal }) =>
      (await api.get('/dogs/all?limit=1', adminDogsResponseSchema, signal)).total,
  });
}

/** One user's pets, for their details (every page: one person's pets are few). */
export function useUserPets(userId: string | undefined) {
  return useQuery({
    queryKey: [...getAllDogsQueryOptions().queryKey, 'user', userId],
    enabled: userId !== undefined,
    queryFn: ({ signal }): Promise<AdminDog[]> =>
      fetchAllPages((offset, s) => getDogsPage(allDogsPath(userId), offset, s), signal),
  });
}
