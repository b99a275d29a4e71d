import { generatedDeviceIdResponseSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/devices/generate-id (admin): an unused 'PET-' + 4 random upper-case letters or digits. */
export async function generateDeviceId(): Promise<string> {
  const { device_id } = await api.get('/devices/generate-id', generatedDeviceIdResponseSchema);
  return device_id;
}
