import { useMutation, useQueryClient } from '@tanstack/react-query';
import { profileResponseSchema, type Role, type User } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getUsersQueryOptions } from './get-users';

export type UpdateUserRoleInput = { userId: string; role: Role };

export async function updateUserRole({ userId, role }: UpdateUserRoleInput): Promise<User> {
  const { user } = await api.put(
    `/auth/users/${encodeURIComponent(userId)}/role`,
    { role },
    profileResponseSchema,
  );
  return user;
}

export function useUpdateUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getUsersQueryOptions().queryKey }),
  });
}
