import { lazy, Suspense, useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { useLoginScreen } from '@/app/login-screen';
import { useHydrated } from '@/lib/use-hydrated';
import { PageLoader } from './page-loader';

const AuthScreen = lazy(() =>
  import('@/features/auth/components/auth-screen').then((m) => ({ default: m.AuthScreen })),
);
const ToasterHost = lazy(() => import('@/app/toaster-host'));

/** The session decides what renders: a loader while it restores, the login screen when asked for. */
export function RootLayout() {
  const { user, isInitializing } = useAuth();
  const loginScreen = useLoginScreen();
  const showLogin = loginScreen.isOpen && !user;
  const { pathname } = useLocation();
  // Toasts exist only in the browser; prerendered HTML has none.
  const hydrated = useHydrated();

  // A new page starts at the top (an in-page #anchor only changes the hash).
  useLayoutEffect(() => {
    // A block body on purpose: newer browsers return a Promise from scrollTo, and an effect
    // must return nothing but a clean-up function.
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <>
      {isInitializing ? (
        <PageLoader label="Loading your session..." fullScreen />
      ) : showLogin ? (
        <Suspense fallback={<PageLoader fullScreen />}>
          <AuthScreen onBack={loginScreen.close} onSignedIn={loginScreen.close} />
        </Suspense>
      ) : (
        <Outlet />
      )}
      {hydrated ? (
        <Suspense fallback={null}>
          <ToasterHost />
        </Suspense>
      ) : null}
    </>
  );
}
