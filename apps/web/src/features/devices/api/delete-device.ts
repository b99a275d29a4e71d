import { useMutation, useQueryClient } from '@tanstack/react-query';
import { successSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';

/** An owner's delete releases the collar: it leaves the account and can be registered again. */
export async function deleteDevice(id: string): Promise<void> {
  await api.delete(`/devices/${encodeURIComponent(id)}`, successSchema);
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
  });
}
