import { deviceResponseSchema, type AssignDeviceInput, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** POST /api/devices/assign/{deviceId}: claims an unassigned collar for one of my pets. */
export async function assignDevice(deviceId: string, input: AssignDeviceInput): Promise<Device> {
  const { device } = await api.post(
    `/devices/assign/${encodeURIComponent(deviceId)}`,
    input,
    deviceResponseSchema,
  );
  return device;
}
