import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Lock, ShieldX } from 'lucide-react';
import type { Role } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';

const ROLE_LABEL: Record<Role, string> = { admin: 'Admin', user: 'User' };

function GuardCard({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="flex justify-center py-10">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col items-center gap-3 p-8 text-center">
          {icon}
          <h1 id="page-title" className="text-2xl font-bold tracking-tight">
            {title}
          </h1>
          {children}
        </CardContent>
      </Card>
    </div>
  );
}

export function AuthenticationRequired({ onSignIn }: { onSignIn: () => void }) {
  return (
    <GuardCard
      icon={<Lock className="size-10 text-primary" aria-hidden="true" />}
      title="Authentication Required"
    >
      <p className="text-muted-foreground">
        Your session has ended. Please sign in to view this page.
      </p>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button onClick={onSignIn}>Sign In</Button>
        <Button variant="outline" asChild>
          <Link to={paths.home}>Back to home</Link>
        </Button>
      </div>
    </GuardCard>
  );
}

export function AccessDenied({
  requiredRoles,
  currentRole,
}: {
  requiredRoles: readonly Role[];
  currentRole: Role;
}) {
  return (
    <GuardCard
      icon={<ShieldX className="size-10 text-destructive" aria-hidden="true" />}
      title="Access Denied"
    >
      <p className="text-muted-foreground">You don&apos;t have permission to view this page.</p>
      <dl className="grid w-full grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-muted p-4 text-left text-sm">
        <dt className="text-muted-foreground">Required role</dt>
        <dd className="font-medium">
          {requiredRoles.map((role) => ROLE_LABEL[role]).join(' or ')}
        </dd>
        <dt className="text-muted-foreground">Your role</dt>
        <dd className="font-medium">{ROLE_LABEL[currentRole]}</dd>
      </dl>
      <Button variant="outline" className="mt-2" asChild>
        <Link to={paths.home}>Back to Dashboard</Link>
      </Button>
    </GuardCard>
  );
}
