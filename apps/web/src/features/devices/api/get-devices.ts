import { queryOptions, useQuery } from '@tanstack/react-query';
import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getDevices(signal?: AbortSignal): Promise<Device[]> {
  const { devices } = await api.get('/devices', devicesResponseSchema, signal);
  return devices;
}

/** The signed-in owner's collars ('devices' is shared with the pet page's status badges). */
export const getDevicesQueryOptions = () =>
  queryOptions({ queryKey: ['devices'], queryFn: ({ signal }) => getDevices(signal) });

export function useDevices() {
  return useQuery(getDevicesQueryOptions());
}
