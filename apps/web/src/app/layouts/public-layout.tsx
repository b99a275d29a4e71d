import { lazy, Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PublicHeader } from '@/components/public-header';
import { SkipLink } from '@/components/skip-link';
import { useLoginScreen } from '@/app/login-screen';
import { PageLoader } from './page-loader';
import { MAIN_ID } from '@/lib/main-region';

const QueryProvider = lazy(() =>
  import('@/lib/query-provider').then((m) => ({ default: m.QueryProvider })),
);

/** Signed-out pages other than the landing page: the public header with its Login action. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const loginScreen = useLoginScreen();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <PublicHeader onLogin={loginScreen.open} onLoginIntent={loginScreen.prepare} />
      <main
        id={MAIN_ID}
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8"
      >
        <Suspense fallback={<PageLoader />}>
          <QueryProvider sessionKey="signed-out">{children ?? <Outlet />}</QueryProvider>
        </Suspense>
      </main>
    </div>
  );
}
