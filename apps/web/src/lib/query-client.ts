import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';

/** Client errors (4xx) will not fix themselves, so only network and server failures retry. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

let current: { sessionKey: string; client: QueryClient } | null = null;

/**
 * One cache per session: a new sign-in (another account, or the same one after a logout or
 * an expired token) starts empty, so nobody sees data cached for someone else.
 */
export function getQueryClient(sessionKey: string): QueryClient {
  if (current?.sessionKey !== sessionKey) {
    current?.client.clear();
    current = { sessionKey, client: createQueryClient() };
  }
  return current.client;
}
