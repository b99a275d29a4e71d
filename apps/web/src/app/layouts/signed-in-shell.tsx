import { Suspense } from 'react';
import type { User } from '@pawguard/shared';
import { preloadable } from '@/lib/preloadable';
import { PageLoader } from './page-loader';

// The signed-in chrome (header, preferences query, footer) stays out of the landing bundle;
// it is preloaded with a returning visitor's session and before a sign-in (app/screens.ts).
export const SignedInLayout = preloadable(async () => ({
  default: (await import('./signed-in-layout')).SignedInLayout,
}));

export function SignedInShell({ user }: { user: User }) {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <SignedInLayout user={user} />
    </Suspense>
  );
}
