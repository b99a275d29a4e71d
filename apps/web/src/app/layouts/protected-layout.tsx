import { useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { LandingRoute } from '@/app/routes/landing';
import { PublicLayout } from './public-layout';
import { SignedInShell } from './signed-in-shell';

/**
 * Signed in: the page under the signed-in header. Signed out: the landing page at this
 * same URL (DESIGN §6) — unless the session just ended here, when the page's guard says
 * 'Authentication Required' instead of the page silently turning into the landing page.
 */
export function ProtectedLayout() {
  const { user, sessionEnded } = useAuth();
  const { pathname } = useLocation();
  if (user) return <SignedInShell user={user} />;
  if (sessionEnded && pathname !== paths.home) return <PublicLayout />;
  return <LandingRoute />;
}
