import { useMutation } from '@tanstack/react-query';
import { rotateKeyResponseSchema, type PrePopulatedDevice } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/**
 * POST /api/admin/devices/{id}/rotate-key: a new key for the collar; the old one stops
 * working at once. The answer is the only time the new key is ever shown.
 */
export async function rotateDeviceKey(id: string): Promise<PrePopulatedDevice> {
  const { device } = await api.post(
    `/admin/devices/${encodeURIComponent(id)}/rotate-key`,
    undefined,
    rotateKeyResponseSchema,
  );
  return device;
}

export function useRotateDeviceKey() {
  return useMutation({ mutationFn: rotateDeviceKey });
}
