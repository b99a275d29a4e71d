import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceResponseSchema, type AutoAssignInput, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';

/** POST /api/device-registration/auto-assign: reserves a free collar and mails its set-up steps. */
export async function autoAssignDevice(input: AutoAssignInput): Promise<Device> {
  const { device } = await api.post(
    '/device-registration/auto-assign',
    input,
    deviceResponseSchema,
  );
  return device;
}

export function useAutoAssignDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: autoAssignDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
  });
}
