import { queryOptions, useQuery } from '@tanstack/react-query';
import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** Spec section 9: the pet page polls every 10 s. */
export const PET_STATUS_POLL_MS = 10_000;

export async function getPetCollars(signal?: AbortSignal): Promise<Device[]> {
  const { devices } = await api.get('/devices', devicesResponseSchema, signal);
  return devices;
}

/** GET /api/devices: the owner's collars with their latest-vitals fields (same cache as /devices). */
export const getPetCollarsQueryOptions = () =>
  queryOptions({ queryKey: ['devices'], queryFn: ({ signal }) => getPetCollars(signal) });

export function usePetCollars() {
  return useQuery({ ...getPetCollarsQueryOptions(), refetchInterval: PET_STATUS_POLL_MS });
}
