import { useAuth } from '@/lib/auth';
import { PublicLayout } from './public-layout';
import { SignedInShell } from './signed-in-shell';

/** Pages open to everyone (/emergency): the header matches who is looking. */
export function OpenLayout() {
  const { user } = useAuth();
  return user ? <SignedInShell user={user} /> : <PublicLayout />;
}
