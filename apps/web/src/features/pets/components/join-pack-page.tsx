import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Check, CircleAlert, LogOut, MailX, RefreshCw, Users } from 'lucide-react';
import { PACK_ROLE_LABELS, type PackInvitationPreview, type User } from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { useDisplayUnits } from '@/lib/display-units';
import { useAcceptPackInvitation } from '../api/accept-pack-invitation';
import { usePackInvitation } from '../api/get-pack-invitation';
import { useInvitationToken } from '../hooks/use-invitation-token';
import { packRoleRights } from './pack-roles';

type JoinPackPageProps = {
  /** Opens the login screen in sign-in mode with this address filled in. */
  onSignIn: (email: string) => void;
  /** Opens it in create-account mode with this address filled in. */
  onSignUp: (email: string) => void;
};

/** Why accepting failed, as the server said it. */
type Refusal = { status: number; message: string };

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Where an invitation's link leads (`/pack/join#<token>`, docs/pack.md), signed in or out: who
 * invites to which pet and as what; signed out, sign in or create an account with the invited
 * address first; signed in with it, Accept.
 */
export function JoinPackPage({ onSignIn, onSignUp }: JoinPackPageProps) {
  const { user } = useAuth();
  const { token, forget } = useInvitationToken();
  const invitation = usePackInvitation(token);
  // A link that is spent, withdrawn or expired stays so: not kept for after a sign-in.
  const invalid = invitation.error instanceof ApiError && invitation.error.status === 404;
  useEffect(() => {
    if (invalid) forget();
  }, [invalid, forget]);

  const title = invitation.data ? `Join ${invitation.data.dog_name}'s pack` : 'Join a pack';
  return (
    <section aria-labelledby="page-title" className="mx-auto grid w-full max-w-2xl">
      <PageHeader
        title={title}
        description="Share the care of a dog: see them live and get their alerts."
      />
      {token === null ? (
        <NoInvitation signedIn={user !== null} />
      ) : invitation.isPending ? (
        <Card>
          <CardContent className="flex justify-center p-10">
            <Spinner label="Loading the invitation…" />
          </CardContent>
        </Card>
      ) : invitation.isError ? (
        <Card>
          <CardContent className="grid justify-items-center gap-3 p-8 text-center">
            <MailX className="size-10 text-muted-foreground" aria-hidden="true" />
            <h2 className="text-lg font-semibold">This invitation can&apos;t be used</h2>
            <p className="max-w-md text-sm text-muted-foreground">{invitation.error.message}</p>
            <div className="flex flex-wrap justify-center gap-2">
              {invalid ? null : (
                <Button variant="outline" onClick={() => void invitation.refetch()}>
                  <RefreshCw aria-hidden="true" />
                  Try Again
                </Button>
              )}
              <HomeLink signedIn={user !== null} />
            </div>
          </CardContent>
        </Card>
      ) : (
        <InvitationCard
          token={token}
          invitation={invitation.data}
          user={user}
          onSignIn={onSignIn}
          onSignUp={onSignUp}
          onSpent={forget}
        />
      )}
    </section>
  );
}

function HomeLink({ signedIn }: { signedIn: boolean }) {
  return (
    <Button variant="outline" asChild>
      {signedIn ? (
        <Link to={paths.myPets}>Go to My Pets</Link>
      ) : (
        <Link to={paths.home}>Back to home</Link>
      )}
    </Button>
  );
}

function NoInvitation({ signedIn }: { signedIn: boolean }) {
  return (
    <Card>
      <CardContent className="grid justify-items-center gap-3 p-8 text-center">
        <MailX className="size-10 text-muted-foreground" aria-hidden="true" />
        <h2 className="text-lg font-semibold">No invitation here</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          This page opens from the link in an invitation e-mail. Open that link again, or ask the
          pet&apos;s owner to send you a new invitation.
        </p>
        <HomeLink signedIn={signedIn} />
      </CardContent>
    </Card>
  );
}

function InvitationCard({
  token,
  invitation,
  user,
  onSignIn,
  onSignUp,
  onSpent,
}: {
  token: string;
  invitation: PackInvitationPreview;
  user: User | null;
  onSignIn: (email: string) => void;
  onSignUp: (email: string) => void;
  onSpent: () => void;
}) {
  const { date } = useDisplayUnits();
  const { logout, isLoading } = useAuth();
  const navigate = useNavigate();
  const accept = useAcceptPackInvitation();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const { dog_name: dog, inviter_name: inviter, role, until, email } = invitation;
  const rights = packRoleRights(role, dog);
  const roleWord = PACK_ROLE_LABELS[role].toLowerCase();
  const wrongAccount = user !== null && !sameAddress(user.email, email);

  const onAccept = () => {
    setRefusal(null);
    accept.mutate(token, {
      onSuccess: (pet) => {
        onSpent();
        toast.success(`You joined ${pet.name}'s pack`, {
          description: `${pet.name} is on My Pets and Monitoring now.`,
        });
        void navigate(paths.myPets);
      },
      onError: (error) => {
        const status = error instanceof ApiError ? error.status : 0;
        if (status === 404) onSpent();
        setRefusal({ status, message: error.message });
      },
    });
  };

  return (
    <Card>
      <CardHeader className="flex-row items-start gap-4">
        <span
          aria-hidden="true"
          className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-orange-100 text-primary"
        >
          <Users className="size-6" />
        </span>
        <div className="grid min-w-0 gap-1">
          <CardTitle as="h2" className="[overflow-wrap:anywhere]">
            {inviter || 'Someone'} invites you to {dog}&apos;s pack as {roleWord}
            {until ? ` (until ${date(until)})` : ''}
          </CardTitle>
          <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
            Sent to {email}. The link works once, until {date(invitation.expires_at)}.
          </p>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-2 rounded-lg bg-muted p-4 text-sm">
          <p className="font-medium">As a {roleWord} you can:</p>
          <ul className="grid gap-1.5">
            {rights.may.map((line) => (
              <li key={line} className="flex gap-2">
                <Check className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
                {line}
              </li>
            ))}
          </ul>
          <p className="text-muted-foreground">{rights.mayNot}</p>
        </div>

        {user === null ? (
          <div className="grid gap-3">
            <p className="text-sm [overflow-wrap:anywhere]">
              To accept, create an account or sign in with <strong>{email}</strong>.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => onSignUp(email)}>Create an account</Button>
              <Button variant="outline" onClick={() => onSignIn(email)}>
                Sign in
              </Button>
            </div>
          </div>
        ) : wrongAccount || refusal?.status === 403 ? (
          <Alert variant="destructive" role="alert" className="grid gap-3">
            <p className="flex gap-2 [overflow-wrap:anywhere]">
              <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                {refusal?.message ??
                  `This invitation was sent to ${email}, and you are signed in as ${user.email}.`}{' '}
                Sign out, then sign in or create an account with {email}.
              </span>
            </p>
            <Button
              variant="outline"
              className="justify-self-start"
              disabled={isLoading}
              onClick={() => {
                setRefusal(null);
                void logout();
              }}
            >
              <LogOut aria-hidden="true" />
              Sign out
            </Button>
          </Alert>
        ) : (
          <div className="grid gap-3">
            {refusal ? (
              <Alert variant="destructive" role="alert">
                <CircleAlert aria-hidden="true" />
                <p className="[overflow-wrap:anywhere]">{refusal.message}</p>
              </Alert>
            ) : null}
            {refusal?.status === 404 || refusal?.status === 409 ? (
              <HomeLink signedIn />
            ) : (
              <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                <Button onClick={onAccept} disabled={accept.isPending}>
                  {accept.isPending ? 'Accepting...' : 'Accept Invitation'}
                </Button>
                <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
                  Signed in as {user.email}
                </p>
              </div>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
