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

/**
 * The connection, the one badge a device card leads with (spec section 4, admin view): Online
 * when last_seen is within 5 minutes, Offline when it was seen before, Never connected for
 * stock that has not reported at all.
 */
export function ConnectionBadge({ lastSeen, now }: { lastSeen: string | null; now: number }) {
  if (lastSeen === null)
    return (
      <Badge variant="muted" className="whitespace-nowrap">
        Never connected
      </Badge>
    );
  return isOnline(lastSeen, now) ? (
    <Badge variant="success">
      <span className="size-1.5 rounded-full bg-green-600" aria-hidden="true" />
      Online
    </Badge>
  ) : (
    <Badge variant="warning">
      <span className="size-1.5 rounded-full bg-amber-600" aria-hidden="true" />
      Offline
    </Badge>
  );
}
