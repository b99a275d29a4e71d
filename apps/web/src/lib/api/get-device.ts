import { queryOptions, useQuery } from '@tanstack/react-query';
import { deviceResponseSchema, type Device } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getDevice(id: string, signal?: AbortSignal): Promise<Device> {
  const { device } = await api.get(
    `/devices/${encodeURIComponent(id)}`,
    deviceResponseSchema,
    signal,
  );
  return device;
}

/**
 * Every query about one device lives under ['device', id], so one invalidation reaches the
 * device, its latest reading and its history (lib/realtime.ts does so after a gap).
 */
export const deviceQueryRoot = ['device'] as const;
export const deviceQueryKey = (id: string) => [...deviceQueryRoot, id] as const;

/** GET /api/devices/{id}: one device (the owner's, or any for an admin). */
export const getDeviceQueryOptions = (id: string) =>
  queryOptions({ queryKey: deviceQueryKey(id), queryFn: ({ signal }) => getDevice(id, signal) });

export function useDevice(id: string, { refetchIntervalMs }: { refetchIntervalMs?: number } = {}) {
  return useQuery({ ...getDeviceQueryOptions(id), refetchInterval: refetchIntervalMs ?? false });
}
