import { queryOptions, useQuery } from '@tanstack/react-query';
import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';

export async function getAllDevices(signal?: AbortSignal): Promise<Device[]> {
  const { devices } = await api.get('/devices/all', devicesResponseSchema, signal);
  return devices;
}

export const getAllDevicesQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'devices'], queryFn: ({ signal }) => getAllDevices(signal) });

/** Every device on the platform; never requested for anyone but an admin (spec section 6). */
export function useAllDevices() {
  const { isAdmin } = useAuth();
  return useQuery({ ...getAllDevicesQueryOptions(), enabled: isAdmin });
}
