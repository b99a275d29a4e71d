import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceResponseSchema, type Device, type UpdateDeviceInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';

export type UpdateDeviceVariables = { id: string; data: UpdateDeviceInput };

export async function updateDevice({ id, data }: UpdateDeviceVariables): Promise<Device> {
  const { device } = await api.put(
    `/devices/${encodeURIComponent(id)}`,
    data,
    deviceResponseSchema,
  );
  return device;
}

export function useUpdateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
  });
}
