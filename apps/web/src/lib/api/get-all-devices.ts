import { queryOptions, useQuery } from '@tanstack/react-query';
import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';

export async function getAllDevices(signal?: AbortSignal): Promise<Device[]> {
  const { devices } = await api.get('/devices/all', devicesResponseSchema, signal);
  return devices;
}

/**
 * GET /api/devices/all: every device on the platform. One definition for All Devices, the
 * Admin Portal's fleet list and an admin's Monitoring, so the live stream patches one entry.
 */
export const getAllDevicesQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'devices'], queryFn: ({ signal }) => getAllDevices(signal) });

/** Never requested for anyone but an admin (spec section 6). `refetchIntervalMs` polls. */
export function useAllDevices({
  enabled = true,
  refetchIntervalMs,
}: { enabled?: boolean; refetchIntervalMs?: number } = {}) {
  const { isAdmin } = useAuth();
  return useQuery({
    ...getAllDevicesQueryOptions(),
    enabled: isAdmin && enabled,
    refetchInterval: refetchIntervalMs ?? false,
  });
}
