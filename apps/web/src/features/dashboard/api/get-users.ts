import { queryOptions, useQuery } from '@tanstack/react-query';
import { usersResponseSchema, type AdminUser } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getUsers(signal?: AbortSignal): Promise<AdminUser[]> {
  const { users } = await api.get('/auth/users', usersResponseSchema, signal);
  return users;
}

export const getUsersQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'users'], queryFn: ({ signal }) => getUsers(signal) });

export function useUsers() {
  return useQuery(getUsersQueryOptions());
}
