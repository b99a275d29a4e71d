import { queryOptions, useQuery } from '@tanstack/react-query';
import { preferencesResponseSchema, type Preferences } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getPreferences(signal?: AbortSignal): Promise<Preferences> {
  const { preferences } = await api.get(
    '/notifications/preferences',
    preferencesResponseSchema,
    signal,
  );
  return preferences;
}

export const getPreferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'preferences'],
    queryFn: ({ signal }) => getPreferences(signal),
  });

export function usePreferences({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPreferencesQueryOptions(), enabled });
}
