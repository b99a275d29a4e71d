import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { getQueryClient } from '@/lib/query-client';

/**
 * TanStack Query is provided by the lazily loaded parts of the app (signed-in shell, public
 * pages, dialogs), never by the landing page, whose bundle has a 120 kB budget.
 */
export function QueryProvider({
  sessionKey,
  children,
}: {
  sessionKey: string;
  children: ReactNode;
}) {
  return <QueryClientProvider client={getQueryClient(sessionKey)}>{children}</QueryClientProvider>;
}
