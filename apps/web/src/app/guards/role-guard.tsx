import { useEffect, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { Role } from '@pawguard/shared';
import { useAuth } from '@/lib/auth';
import { useLoginScreen } from '@/app/login-screen';
import { AccessDenied, AuthenticationRequired } from './guard-screens';

type RoleGuardProps = {
  /** Roles allowed in; omit to require only a signed-in user. */
  roles?: readonly Role[];
  /** A toast shown once to a signed-in user whose role is not allowed. */
  deniedToast?: string;
  children: ReactNode;
};

/**
 * Spec section 6. Children render only when allowed, so a denied screen never mounts the
 * page and never loads its data.
 */
export function RoleGuard({ roles, deniedToast, children }: RoleGuardProps) {
  const { user } = useAuth();
  const loginScreen = useLoginScreen();
  const denied = user !== null && roles !== undefined && !roles.includes(user.role);

  useEffect(() => {
    // A fixed id keeps StrictMode's double effect (and revisits) to a single toast.
    if (denied && deniedToast) toast.error(deniedToast, { id: `denied:${deniedToast}` });
  }, [denied, deniedToast]);

  if (!user) return <AuthenticationRequired onSignIn={loginScreen.open} />;
  if (roles && !roles.includes(user.role))
    return <AccessDenied requiredRoles={roles} currentRole={user.role} />;
  return <>{children}</>;
}
