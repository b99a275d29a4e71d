import { useLoginScreen } from '@/app/login-screen';
import { useDocumentTitle } from '@/lib/use-document-title';
import { JoinPackPage } from '@/features/pets/components/join-pack-page';

/**
 * Open to everyone (an invitation's link reaches people without an account): OpenLayout picks
 * the header; signing in or up happens in place and comes back here.
 */
export default function PackJoinRoute() {
  useDocumentTitle('Join a pack');
  const loginScreen = useLoginScreen();
  return (
    <JoinPackPage
      onSignIn={(email) => loginScreen.openAs('sign-in', email)}
      onSignUp={(email) => loginScreen.openAs('sign-up', email)}
    />
  );
}
