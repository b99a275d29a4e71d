import { Loader2, ShieldAlert, ShieldCheck, WifiOff } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { PetStatus } from './pet-status';

const LOOK = {
  loading: { label: 'Loading', variant: 'muted', Icon: Loader2 },
  disconnected: { label: 'Disconnected', variant: 'muted', Icon: WifiOff },
  safe: { label: 'Safe', variant: 'success', Icon: ShieldCheck },
  danger: { label: 'Danger', variant: 'destructive', Icon: ShieldAlert },
} as const;

export function PetStatusBadge({ status }: { status: PetStatus }) {
  const { label, variant, Icon } = LOOK[status];
  return (
    <Badge variant={variant} data-status={status}>
      <Icon className={status === 'loading' ? 'animate-spin' : undefined} aria-hidden="true" />
      {label}
    </Badge>
  );
}
