import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { pagePath, usePagedList } from '@/lib/paged-list';

export async function getAllDevicesPage(offset: number, signal?: AbortSignal) {
  const page = await api.get(pagePath('/devices/all', offset), devicesResponseSchema, signal);
  return { rows: page.devices, total: page.total };
}

export const getAllDevicesQueryOptions = () => ({ queryKey: ['admin', 'devices'] as const });

/**
 * Every device on the platform, newest first, a page at a time; never requested for anyone
 * but an admin (spec section 6).
 */
export function useAllDevices() {
  const { isAdmin } = useAuth();
  return usePagedList<Device>(getAllDevicesQueryOptions().queryKey, getAllDevicesPage, {
    enabled: isAdmin,
  });
}
