import type { ReactNode } from 'react';
import { AuthProvider } from '@/lib/auth';
import { LoginScreenProvider } from './login-screen';

/** App-wide providers. TanStack Query is provided per session by the layouts (see lib/query-provider). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      <LoginScreenProvider>{children}</LoginScreenProvider>
    </AuthProvider>
  );
}
