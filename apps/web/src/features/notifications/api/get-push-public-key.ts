import { queryOptions, useQuery } from '@tanstack/react-query';
import { pushPublicKeyResponseSchema } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** GET /api/push/public-key: the server's VAPID key, the applicationServerKey to subscribe with. */
export async function getPushPublicKey(signal?: AbortSignal): Promise<string> {
  const { public_key } = await api.get('/push/public-key', pushPublicKeyResponseSchema, signal);
  return public_key;
}

export const getPushPublicKeyQueryOptions = () =>
  queryOptions({
    queryKey: ['push', 'public-key'],
    queryFn: ({ signal }) => getPushPublicKey(signal),
    // The server keeps one key pair for good.
    staleTime: Infinity,
  });

export function usePushPublicKey({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getPushPublicKeyQueryOptions(), enabled });
}
