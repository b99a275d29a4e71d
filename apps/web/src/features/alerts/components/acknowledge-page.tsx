import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { CheckCircle2, CircleAlert, Hospital, Loader2 } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { AlertAcknowledgement } from '@/components/alert-acknowledgement';
import { HeatFirstAid, LEVEL_LOOK } from '@/components/heat-risk';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { useAcknowledgeLink, type AcknowledgeOutcome } from '../api/acknowledge-by-link';

export const INCOMPLETE_LINK = 'This link is incomplete. Open PawGuard to acknowledge the alert.';
export const ALREADY_RESOLVED = 'This alert is already resolved.';
export const KEEPS_WATCHING = 'PawGuard keeps watching: if it gets worse, you will be told again.';

/** Where the page keeps the link's token once it is out of the address bar. */
type LinkState = { ackToken?: unknown } | null;

/** The token of an acknowledge link: the fragment (`/acknowledge#<token>`), never sent to a server. */
function tokenOf(hash: string, state: LinkState): string | null {
  const fromHash = hash.replace(/^#/, '').trim();
  if (fromHash) return fromHash;
  return typeof state?.ackToken === 'string' && state.ackToken ? state.ackToken : null;
}

/**
 * The page an alert mail's "Acknowledge" link opens, signed in or not. It acknowledges as it
 * opens, once, and takes the token out of the address bar at once (kept in this page's history
 * entry instead, so signing in from here or reloading still knows it). Then it says what came
 * of it, what to do for the dog, and where to go next.
 */
export function AcknowledgePage() {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [token, setToken] = useState(() => tokenOf(location.hash, location.state as LinkState));
  // Another link opened in this same tab (only the fragment changes): that one counts now.
  const fromHash = tokenOf(location.hash, null);
  if (fromHash && fromHash !== token) setToken(fromHash);
  const { outcome, retry } = useAcknowledgeLink(token);

  useEffect(() => {
    if (!location.hash) return;
    void navigate(
      { pathname: location.pathname, search: location.search },
      { replace: true, state: { ackToken: token } },
    );
  }, [location.hash, location.pathname, location.search, navigate, token]);

  return (
    <section aria-labelledby="page-title" className="mx-auto grid w-full max-w-xl gap-6">
      <PageHeader title="Acknowledge alert" className="mb-0" />
      <div role="status" aria-live="polite" aria-atomic="true">
        {token === null ? (
          <Outcome tone="problem">{INCOMPLETE_LINK}</Outcome>
        ) : outcome === null ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Loader2 className="size-5 animate-spin text-primary" aria-hidden="true" />
            Acknowledging…
          </p>
        ) : (
          <OutcomeWords outcome={outcome} />
        )}
      </div>
      {outcome?.status === 'failed' ? (
        <div>
          <Button type="button" variant="outline" onClick={retry}>
            Try again
          </Button>
        </div>
      ) : null}
      {outcome?.status === 'acknowledged' ? <WhatToDo outcome={outcome} /> : null}
      <div className="flex flex-wrap gap-3">
        <Button asChild>
          <Link to={user ? paths.monitoring : paths.home}>Open PawGuard</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={paths.emergency}>
            <Hospital aria-hidden="true" />
            Find an emergency vet
          </Link>
        </Button>
      </div>
    </section>
  );
}

function OutcomeWords({ outcome }: { outcome: AcknowledgeOutcome }) {
  switch (outcome.status) {
    case 'acknowledged': {
      const { alert } = outcome;
      const dog = alert.dog_name ?? alert.device_name ?? alert.device_id;
      const level = LEVEL_LOOK[alert.level ?? 'WARNING'].word;
      return (
        <Outcome tone="done" title={`You acknowledged ${dog}'s ${level} heat alert`}>
          {KEEPS_WATCHING}
        </Outcome>
      );
    }
    case 'resolved':
      return <Outcome tone="problem">{ALREADY_RESOLVED}</Outcome>;
    case 'invalid':
    case 'failed':
      return <Outcome tone="problem">{outcome.message}</Outcome>;
  }
}

function Outcome({
  tone,
  title,
  children,
}: {
  tone: 'done' | 'problem';
  title?: string;
  children: ReactNode;
}) {
  const Icon = tone === 'done' ? CheckCircle2 : CircleAlert;
  return (
    <div
      data-outcome={tone}
      className={cn(
        'flex items-start gap-3 rounded-lg border p-4',
        tone === 'done'
          ? 'border-green-200 bg-green-50 text-green-950'
          : 'border-amber-300 bg-amber-50 text-amber-950',
      )}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="grid min-w-0 gap-1">
        {title ? <p className="text-lg font-semibold">{title}</p> : null}
        <p>{children}</p>
      </div>
    </div>
  );
}

/** The first aid for the alert's level, and who acknowledged it (a pack's first tap counts). */
function WhatToDo({
  outcome,
}: {
  outcome: Extract<AcknowledgeOutcome, { status: 'acknowledged' }>;
}) {
  const now = useNow(30_000);
  const { alert } = outcome;
  return (
    <div className="grid gap-2 rounded-lg border bg-card p-4 text-sm">
      <AlertAcknowledgement alert={alert} now={now} className="text-muted-foreground" />
      <h2 className="text-base font-semibold">What to do now</h2>
      <HeatFirstAid level={alert.level ?? 'WARNING'} />
    </div>
  );
}
