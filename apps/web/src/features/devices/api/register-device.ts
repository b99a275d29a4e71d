import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Device } from '@pawguard/shared';
import { ApiError } from '@/lib/api-client';
import { assignDevice } from './assign-device';
import { createDevice } from './create-device';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';
import { lookupDevice } from './lookup-device';

export type RegisterDeviceInput = {
  dogId: string;
  deviceName: string;
  deviceId: string;
  /** The owner has seen that no collar has this Device ID and asked to create it anyway. */
  createUnknown?: boolean;
};

export type RegisterDeviceResult =
  | { outcome: 'assigned'; device: Device }
  | { outcome: 'already-assigned'; message: string }
  | { outcome: 'unknown'; deviceId: string }
  | { outcome: 'created'; device: Device };

/** The fallback failed: the Device ID was unknown and creating it did not work either. */
export class CreateDeviceError extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
    this.name = 'CreateDeviceError';
  }
}

/**
 * The spec's fallback: a device for a Device ID no collar has (stored unregistered until an
 * admin pre-populates that ID).
 */
async function createUnknownDevice({ dogId, deviceName, deviceId }: RegisterDeviceInput) {
  try {
    const device = await createDevice({
      device_id: deviceId,
      dog_id: dogId,
      device_name: deviceName,
      device_type: 'collar',
    });
    return { outcome: 'created', device } as const;
  } catch (createError) {
    if (createError instanceof ApiError) throw new CreateDeviceError(createError);
    throw createError;
  }
}

/**
 * The registration flow (spec section 4, DESIGN §3): look the Device ID up; an unassigned
 * collar is claimed for the pet; an assigned one is refused; an unknown one (404, and only
 * a 404 — never a network error or a 5xx) is answered as unknown, so the owner can check a
 * mistyped ID first; asked again with `createUnknown`, the spec's fallback creates it as a new,
 * unregistered device.
 */
export async function registerDevice(input: RegisterDeviceInput): Promise<RegisterDeviceResult> {
  const { dogId, deviceName, deviceId } = input;
  if (input.createUnknown) return createUnknownDevice(input);
  let lookup;
  try {
    lookup = await lookupDevice(deviceId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    return { outcome: 'unknown', deviceId };
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
