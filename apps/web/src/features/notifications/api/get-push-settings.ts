import { queryOptions, useQuery } from '@tanstack/react-query';
import { pushSettingsResponseSchema, type PushSettings } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/push/settings: which alerts push to the signed-in person's browsers. */
export async function getPushSettings(signal?: AbortSignal): Promise<PushSettings> {
  const { settings } = await api.get('/push/settings', pushSettingsResponseSchema, signal);
  return settings;
}

export const getPushSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ['push', 'settings'],
    queryFn: ({ signal }) => getPushSettings(signal),
  });

export function usePushSettings() {
  return useQuery(getPushSettingsQueryOptions());
}
