import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useLoginScreen } from '@/app/login-screen';
import { LandingPage } from '@/features/landing/components/landing-page';

// The dialog's code loads on first open, keeping it out of the landing page's bundle.
const WaitlistDialog = lazy(async () => {
  const [{ WaitlistDialog: Dialog }, { QueryProvider }] = await Promise.all([
    import('@/features/waitlist/components/waitlist-dialog'),
    import('@/lib/query-provider'),
  ]);
  return {
    default: (props: ComponentProps<typeof Dialog>) => (
      <QueryProvider sessionKey="signed-out">
        <Dialog {...props} />
      </QueryProvider>
    ),
  };
});

/** Not lazy: this is what every signed-out visitor sees first. */
export function LandingRoute() {
  useDocumentTitle(null);
  const loginScreen = useLoginScreen();
  const [waitlistOpen, setWaitlistOpen] = useState(false);
  const [waitlistRequested, setWaitlistRequested] = useState(false);

  return (
    <>
      <LandingPage
        onLogin={loginScreen.open}
        onLoginIntent={loginScreen.prepare}
        onJoinWaitlist={() => {
          setWaitlistRequested(true);
          setWaitlistOpen(true);
        }}
      />
      {waitlistRequested ? (
        <Suspense fallback={null}>
          <WaitlistDialog open={waitlistOpen} onOpenChange={setWaitlistOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
