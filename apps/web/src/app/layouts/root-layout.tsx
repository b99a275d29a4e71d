import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { useLoginScreen } from '@/app/login-screen';
import { useHydrated } from '@/lib/use-hydrated';
import { AuthScreen } from '@/app/screens';
import { PageLoader, SessionLoader } from './page-loader';

const ToasterHost = lazy(() => import('@/app/toaster-host'));

/** The session decides what renders: a loader while it restores, the login screen when asked for. */
export function RootLayout() {
  const { user, isInitializing } = useAuth();
  const loginScreen = useLoginScreen();
  const showLogin = loginScreen.isOpen && !user;
  const { pathname, search } = useLocation();
  const toasts = useToasterDemand(user !== null || showLogin || search.includes('confirmed='));

  // A new page starts at the top (an in-page #anchor only changes the hash).
  useLayoutEffect(() => {
    // A block body on purpose: newer browsers return a Promise from scrollTo, and an effect
    // must return nothing but a clean-up function.
    window.scrollTo(0, 0);
  }, [pathname]);

  return (
    <>
      {isInitializing ? (
        <SessionLoader />
      ) : showLogin ? (
        <Suspense fallback={<PageLoader fullScreen />}>
          <AuthScreen
            onBack={loginScreen.close}
            onSignedIn={loginScreen.close}
            initialMode={loginScreen.mode}
            initialEmail={loginScreen.email}
          />
        </Suspense>
      ) : (
        <Outlet />
      )}
      {toasts ? (
        <Suspense fallback={null}>
          <ToasterHost />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * Whether to load the toaster. Toasts exist only in the browser (prerendered HTML has none),
 * and a signed-out visitor on the landing page only gets one after doing something: its code
 * loads with the first interaction, keeping it off the landing page's first load. Once loaded
 * it stays: the 'Email confirmed' toast removes the ?confirmed= that asked for it, and
 * unloading the toaster then took the toast away in the same instant.
 */
function useToasterDemand(needed: boolean): boolean {
  const hydrated = useHydrated();
  const [interacted, setInteracted] = useState(false);
  if (needed && hydrated && !interacted) setInteracted(true);
  useEffect(() => {
    if (interacted) return;
    const onInteraction = () => setInteracted(true);
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    for (const event of events) window.addEventListener(event, onInteraction, { once: true });
    return () => {
      for (const event of events) window.removeEventListener(event, onInteraction);
    };
  }, [interacted]);
  return hydrated && (needed || interacted);
}
