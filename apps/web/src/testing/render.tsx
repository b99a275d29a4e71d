import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { User } from '@pawguard/shared';
import { AuthContext, type AuthContextValue } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { LoginScreenProvider } from '@/app/login-screen';

/** An auth context for a given user (or signed out) without any network. */
export function fakeAuth(
  user: User | null,
  overrides: Partial<AuthContextValue> = {},
): AuthContextValue {
  const role = user?.role ?? null;
  return {
    user,
    status: user ? 'signed-in' : 'signed-out',
    isInitializing: false,
    isLoading: false,
    sessionEnded: false,
    sessionKey: user ? 'test-session' : 'signed-out',
    confirmationPending: false,
    role,
    isAdmin: role === 'admin',
    isUser: role === 'user',
    login: async () => {
      throw new Error('login not stubbed');
    },
    register: async () => {
      throw new Error('register not stubbed');
    },
    logout: async () => {},
    savePreferences: async () => {
      throw new Error('savePreferences not stubbed');
    },
    dismissConfirmationNotice: () => {},
    ...overrides,
  };
}

type Options = { route?: string; auth?: AuthContextValue };

/** Renders inside a router, a fresh query cache, a fixed auth context and the login-screen state. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', auth = fakeAuth(null) }: Options = {},
) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <MemoryRouter initialEntries={[route]}>
        <QueryClientProvider client={queryClient}>
          <AuthContext.Provider value={auth}>
            <LoginScreenProvider>{children}</LoginScreenProvider>
          </AuthContext.Provider>
        </QueryClientProvider>
      </MemoryRouter>
    );
  }
  return { queryClient, ...render(ui, { wrapper: Wrapper }) };
}
