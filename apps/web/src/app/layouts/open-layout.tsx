import { useAuth } from '@/lib/auth';
import { PublicLayout } from './public-layout';
import { SignedInShell } from './signed-in-shell';

/**
 * Pages open to everyone (/emergency; /pack/join and /acknowledge, which an invitation's and an
 * alert mail's links open): the header matches who is looking.
 */
export function OpenLayout() {
  const { user } = useAuth();
  return user ? <SignedInShell user={user} /> : <PublicLayout />;
}
