import { Suspense, useEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import type { User } from '@pawguard/shared';
import { SkipLink } from '@/components/skip-link';
import { useAuth } from '@/lib/auth';
import { QueryProvider } from '@/lib/query-provider';
import { useLiveStream } from '@/lib/realtime';
import { ConfirmEmailNotice } from '@/features/auth/components/confirm-email-notice';
import { AppFooter } from './app-footer';
import { PageLoader } from './page-loader';
import { SignedInHeader } from './signed-in-header';
import { useFocusMainOnNavigate } from './focus-main';
import { MAIN_ID } from '@/lib/main-region';
import { registerServiceWorkerAfterLoad } from '@/lib/service-worker';

/** Header, main and footer around every signed-in page. */
export function SignedInLayout({ user, children }: { user: User; children?: ReactNode }) {
  const { logout, isLoading, confirmationPending, dismissConfirmationNotice, sessionKey } =
    useAuth();
  useFocusMainOnNavigate();
  // The app's files kept for a fast next visit, and pushes: for people who sign in (a visitor
  // on the landing page downloads nothing more than the page).
  useEffect(registerServiceWorkerAfterLoad, []);
  return (
    <QueryProvider sessionKey={sessionKey}>
      <LiveStream />
      <div className="flex min-h-dvh flex-col">
        <SkipLink />
        <SignedInHeader user={user} onLogout={() => void logout()} loggingOut={isLoading} />
        {/* At least a screen tall below the header (h-16), so the footer starts below the
            first screen: content arriving above it (the dashboard's cards, a list) never
            pushes a footer already in view down the page (a layout shift on a slow phone). */}
        <main
          id={MAIN_ID}
          tabIndex={-1}
          className="mx-auto min-h-[calc(100dvh-4rem-1px)] w-full max-w-7xl flex-1 px-4 py-6 focus:outline-none sm:px-6 sm:py-8"
        >
          {confirmationPending ? (
            <div className="mb-6">
              <ConfirmEmailNotice email={user.email} onDismiss={dismissConfirmationNotice} />
            </div>
          ) : null}
          <Suspense fallback={<PageLoader />}>{children ?? <Outlet />}</Suspense>
        </main>
        <AppFooter />
      </div>
    </QueryProvider>
  );
}

/** The live stream runs exactly while someone is signed in: this layout mounts at sign-in. */
function LiveStream() {
  useLiveStream();
  return null;
}
