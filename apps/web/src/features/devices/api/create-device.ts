import { deviceResponseSchema, type CreateDeviceInput, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** POST /api/devices: the fallback for a Device ID the server does not know (stored unregistered). */
export async function createDevice(input: CreateDeviceInput): Promise<Device> {
  const { device } = await api.post('/devices', input, deviceResponseSchema);
  return device;
}
