import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { pagePath, usePagedList } from '@/lib/paged-list';

export async function getAllDevicesPage(offset: number, signal?: AbortSignal) {
  const page = await api.get(pagePath('/devices/all', offset), devicesResponseSchema, signal);
  return { rows: page.devices, total: page.total };
}

/**
 * GET /api/devices/all: every device on the platform, newest first, a page at a time. One
 * definition for All Devices, the Admin Portal's fleet list and an admin's Monitoring, so the
 * live stream patches one entry. Never requested for anyone but an admin (spec section 6).
 */
export const getAllDevicesQueryOptions = () => ({ queryKey: ['admin', 'devices'] as const });

/** `refetchIntervalMs` polls (the fallback while the live stream is down). */
export function useAllDevices({
  enabled = true,
  refetchIntervalMs,
}: { enabled?: boolean; refetchIntervalMs?: number } = {}) {
  const { isAdmin } = useAuth();
  return usePagedList<Device>(getAllDevicesQueryOptions().queryKey, getAllDevicesPage, {
    enabled: isAdmin && enabled,
    refetchIntervalMs,
  });
}
