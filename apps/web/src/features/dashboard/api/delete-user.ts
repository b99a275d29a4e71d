import { useMutation, useQueryClient } from '@tanstack/react-query';
import { successSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getAllDogsQueryOptions } from './get-all-dogs';
import { getUsersQueryOptions } from './get-users';

export async function deleteUser(userId: string): Promise<void> {
  await api.delete(`/auth/users/${encodeURIComponent(userId)}`, successSchema);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getUsersQueryOptions().queryKey }),
        // The account's pets go with it.
        queryClient.invalidateQueries({ queryKey: getAllDogsQueryOptions().queryKey }),
      ]),
  });
}
