import { deviceLookupResponseSchema, type DeviceLookup } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/devices/by-device-id/{deviceId}: whether a Device ID can be claimed; 404 when unknown. */
export async function lookupDevice(deviceId: string): Promise<DeviceLookup> {
  return api.get(
    `/devices/by-device-id/${encodeURIComponent(deviceId)}`,
    deviceLookupResponseSchema,
  );
}
