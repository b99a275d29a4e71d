import { lazy, Suspense } from 'react';
import type { User } from '@pawguard/shared';
import { PageLoader } from './page-loader';

// The signed-in chrome (header, preferences query, footer) stays out of the landing bundle.
const SignedInLayout = lazy(() =>
  import('./signed-in-layout').then((m) => ({ default: m.SignedInLayout })),
);

export function SignedInShell({ user }: { user: User }) {
  return (
    <Suspense fallback={<PageLoader fullScreen />}>
      <SignedInLayout user={user} />
    </Suspense>
  );
}
