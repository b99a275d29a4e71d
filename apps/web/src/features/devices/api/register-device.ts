import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device } from '@pawguard/shared';
import { ApiError } from '@/lib/api-client';
import { assignDevice } from './assign-device';
import { createDevice } from './create-device';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';
import { lookupDevice } from './lookup-device';

export type RegisterDeviceInput = { dogId: string; deviceName: string; deviceId: string };

export type RegisterDeviceResult =
  | { outcome: 'assigned'; device: Device }
  | { outcome: 'already-assigned'; message: string }
  | { outcome: 'created'; device: Device };

/** The fallback failed: the Device ID was unknown and creating it did not work either. */
export class CreateDeviceError extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
    this.name = 'CreateDeviceError';
  }
}

/**
 * The registration flow (spec section 4, DESIGN §3): look the Device ID up; an unassigned
 * collar is claimed for the pet; an assigned one is refused; an unknown one (404, and only
 * a 404 — never a network error or a 5xx) is created as a new, unregistered device.
 */
export async function registerDevice({
  dogId,
  deviceName,
  deviceId,
}: RegisterDeviceInput): Promise<RegisterDeviceResult> {
  let lookup;
  try {
    lookup = await lookupDevice(deviceId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    try {
      const device = await createDevice({
        device_id: deviceId,
        dog_id: dogId,
        device_name: deviceName,
        device_type: 'collar',
      });
      return { outcome: 'created', device };
    } catch (createError) {
      if (createError instanceof ApiError) throw new CreateDeviceError(createError);
      throw createError;
    }
  }

  if (lookup.status === 'assigned') return { outcome: 'already-assigned', message: lookup.message };

  try {
    const device = await assignDevice(deviceId, {
      dog_id: dogId,
      device_name: deviceName,
      device_type: 'collar',
    });
    return { outcome: 'assigned', device };
  } catch (error) {
    // Someone else claimed it between the look-up and the claim.
    if (error instanceof ApiError && error.status === 409)
      return { outcome: 'already-assigned', message: error.message };
    throw error;
  }
}

export function useRegisterDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerDevice,
    onSettled: () => queryClient.invalidateQueries({ queryKey: getDevicesQueryOptions().queryKey }),
  });
}
