import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicConfigResponseSchema, type PublicConfigResponse } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/**
 * The server's public settings: the support e-mail and phone (SUPPORT_EMAIL, SUPPORT_PHONE), and
 * the port collars reach it on over MQTT (MQTT_PORT), if any.
 */
export function getPublicConfig(signal?: AbortSignal): Promise<PublicConfigResponse> {
  return api.get('/config', publicConfigResponseSchema, signal);
}

export const getPublicConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: ({ signal }) => getPublicConfig(signal),
    // Settings change only with a restart of the server.
    staleTime: Infinity,
  });

export function usePublicConfig() {
  return useQuery(getPublicConfigQueryOptions());
}
