import { queryOptions, useQuery } from '@tanstack/react-query';
import { devicesResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { fetchAllPages, pagePath } from '@/lib/paged-list';

/** Every one of the owner's devices: all pages (an owner's collars are few). */
export async function getDevices(signal?: AbortSignal): Promise<Device[]> {
  return fetchAllPages(async (offset, s) => {
    const page = await api.get(pagePath('/devices', offset), devicesResponseSchema, s);
    return { rows: page.devices, total: page.total };
  }, signal);
}

/**
 * GET /api/devices: the owner's collars with their latest-vitals fields. One definition for
 * Device Management, Monitoring and the pet page's status badges, so they share one cache
 * entry, which the live stream (lib/realtime.ts) patches in place.
 */
export const getDevicesQueryOptions = () =>
  queryOptions({ queryKey: ['devices'], queryFn: ({ signal }) => getDevices(signal) });

/** `refetchIntervalMs` polls (the fallback while the live stream is down). */
export function useDevices({
  enabled = true,
  refetchIntervalMs,
}: { enabled?: boolean; refetchIntervalMs?: number } = {}) {
  return useQuery({
    ...getDevicesQueryOptions(),
    enabled,
    refetchInterval: refetchIntervalMs ?? false,
  });
}
