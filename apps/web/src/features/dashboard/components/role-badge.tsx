import { Shield, User as UserIcon } from 'lucide-react';
import type { Role } from '@pawguard/shared';
import { Badge } from '@/components/ui/badge';

export function RoleBadge({ role }: { role: Role }) {
  return role === 'admin' ? (
    <Badge variant="warning">
      <Shield aria-hidden="true" />
      Admin
    </Badge>
  ) : (
    <Badge variant="muted">
      <UserIcon aria-hidden="true" />
      User
    </Badge>
  );
}
