import { Users } from 'lucide-react';
import { PACK_ROLE_LABELS, type PetAccess } from '@pawguard/shared';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

/**
 * Says that a pet (or a collar on it) is someone else's, shared with the signed-in person, and
 * as what: 'Shared by Riley · Caregiver'. Nothing for their own.
 */
export function SharedPetBadge({
  access,
  ownerName,
  className,
}: {
  access: PetAccess | null;
  ownerName: string | null;
  className?: string;
}) {
  if (access === null || access === 'owner') return null;
  return (
    <Badge
      variant="secondary"
      data-access={access}
      className={cn('max-w-full whitespace-normal', className)}
    >
      <Users aria-hidden="true" />
      <span className="min-w-0 [overflow-wrap:anywhere]">
        {ownerName ? `Shared by ${ownerName}` : 'Shared with you'} · {PACK_ROLE_LABELS[access]}
      </span>
    </Badge>
  );
}
