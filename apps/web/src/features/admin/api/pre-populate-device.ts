import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  defaultDeviceName,
  prePopulateResponseSchema,
  type PrePopulatedDevice,
} from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { getAllDevicesQueryOptions } from '@/lib/api/get-all-devices';

export type PrePopulateDeviceInput = { deviceId: string; macAddress: string };

/**
 * POST /api/admin/devices/pre-populate with one collar, named 'Device ' + its id. The answer
 * is the only time its key (and the QR code of the key) is ever shown.
 */
export async function prePopulateDevice({
  deviceId,
  macAddress,
}: PrePopulateDeviceInput): Promise<PrePopulatedDevice> {
  const { devices } = await api.post(
    '/admin/devices/pre-populate',
    {
      devices: [
        {
          device_id: deviceId,
          device_address: macAddress,
          device_name: defaultDeviceName(deviceId),
          device_type: 'collar',
        },
      ],
    },
    prePopulateResponseSchema,
  );
  return devices[0]!;
}

export function usePrePopulateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: prePopulateDevice,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: getAllDevicesQueryOptions().queryKey }),
  });
}
