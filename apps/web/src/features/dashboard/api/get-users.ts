import { usersResponseSchema, type AdminUser } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { pagePath, usePagedList } from '@/lib/paged-list';

/** A page of users (100 at most) with the platform counts over every user. */
export async function getUsersPage(offset: number, signal?: AbortSignal) {
  const page = await api.get(pagePath('/auth/users', offset), usersResponseSchema, signal);
  return { ...page, rows: page.users };
}

export const getUsersQueryOptions = () => ({ queryKey: ['admin', 'users'] as const });

/** The user table: the first page now, more on demand. */
export function useUsers() {
  return usePagedList<AdminUser, Awaited<ReturnType<typeof getUsersPage>>>(
    getUsersQueryOptions().queryKey,
    getUsersPage,
  );
}
