import { isOnline, type RegistrationStatus } from '@pawguard/shared';
import { Badge } from '@/components/ui/badge';

const REGISTRATION_LOOK: Record<
  RegistrationStatus,
  { text: string; variant: 'muted' | 'secondary' | 'success' | 'warning' }
> = {
  unassigned: { text: 'Unassigned', variant: 'muted' },
  unregistered: { text: 'Unregistered', variant: 'warning' },
  assigned: { text: 'Assigned', variant: 'secondary' },
  active: { text: 'Active', variant: 'success' },
};

export function RegistrationBadge({ status }: { status: RegistrationStatus }) {
  const look = REGISTRATION_LOOK[status];
  return <Badge variant={look.variant}>{look.text}</Badge>;
}

/** Spec section 4, admin view: Online when last_seen is within 5 minutes. */
export function OnlineBadge({ lastSeen, now }: { lastSeen: string | null; now: number }) {
  return isOnline(lastSeen, now) ? (
    <Badge variant="success">
      <span className="size-1.5 rounded-full bg-green-600" aria-hidden="true" />
      Online
    </Badge>
  ) : (
    <Badge variant="muted">
      <span className="size-1.5 rounded-full bg-slate-400" aria-hidden="true" />
      Offline
    </Badge>
  );
}
