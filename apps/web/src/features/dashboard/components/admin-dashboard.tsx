import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import {
  Activity,
  AlertTriangle,
  HeartPulse,
  PawPrint,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { AdminUser } from '@pawguard/shared';
import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { LoadMore } from '@/components/load-more';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { usePetTotal, useUserPets } from '../api/get-all-dogs';
import { useUsers } from '../api/get-users';
import { ChangeRoleDialog } from './change-role-dialog';
import { UserDetailsDialog } from './user-details-dialog';
import { UserTable } from './user-table';

/** `children`: further admin sections the app composes in (the waitlist). */
export function AdminDashboard({ children }: { children?: ReactNode }) {
  const { user: currentUser, isAdmin } = useAuth();
  const users = useUsers();
  const petTotal = usePetTotal();
  const [detailsUserId, setDetailsUserId] = useState<string | null>(null);
  const detailsPets = useUserPets(detailsUserId ?? undefined);
  const [roleUser, setRoleUser] = useState<AdminUser | null>(null);

  useEffect(() => {
    if (users.isError)
      toast.error('Failed to fetch users', {
        id: 'fetch-users',
        description: users.error?.message,
      });
  }, [users.isError, users.error]);
  useEffect(() => {
    const failed = petTotal.isError
      ? petTotal.error
      : detailsPets.isError
        ? detailsPets.error
        : null;
    if (failed)
      toast.error('Failed to fetch dogs', { id: 'fetch-dogs', description: failed.message });
  }, [petTotal.isError, petTotal.error, detailsPets.isError, detailsPets.error]);

  const list = users.data ?? [];
  // Counted by the server over every user, not over the pages loaded here.
  const counts = users.firstPage;
  const adminCount = counts?.admin_count ?? 0;
  const userCount = (counts?.total ?? 0) - adminCount;
  const activeUsers = counts?.active_count ?? 0;
  // Looked up by id so the dialog follows refetched data (e.g. after a role change).
  const detailsUser = detailsUserId ? (list.find((u) => u.id === detailsUserId) ?? null) : null;
  const canDelete =
    detailsUser !== null &&
    isAdmin &&
    detailsUser.id !== currentUser?.id &&
    !(detailsUser.role === 'admin' && adminCount <= 1);

  const failed = [users.isError && 'users', petTotal.isError && 'pets'].filter(Boolean);
  // The value is the spec's static Healthy; until both lists have answered (retries included)
  // the detail says the figures are still being checked, not that all is well.
  const checking = users.isPending || petTotal.isPending;
  const health: Pick<StatCardProps, 'value' | 'detail' | 'tone'> = checking
    ? { value: 'Healthy', detail: 'Checking…', tone: 'muted' }
    : failed.length > 0
      ? { value: 'Healthy', detail: 'Service up; some data failed to load', tone: 'default' }
      : { value: 'Healthy', detail: 'All systems operational', tone: 'success' };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Admin Dashboard" description="Platform overview and user management." />

      {failed.length > 0 ? (
        // The health card stays the spec's static value; this says plainly what is missing.
        <Alert variant="destructive" role="alert" className="mb-6 items-center">
          <AlertTriangle aria-hidden="true" />
          <p className="flex-1">
            The list of {failed.join(' and ')} could not be loaded, so the figures below are
            incomplete.
          </p>
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              if (users.isError) void users.refetch();
              if (petTotal.isError) void petTotal.refetch();
            }}
          >
            Try Again
          </Button>
        </Alert>
      ) : null}

      {/* Two by two on a phone, four in a row on a wide screen. */}
      <ul
        className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4"
        aria-label="Platform statistics"
      >
        <StatCard
          icon={Users}
          title="Total Users"
          value={counts ? counts.total : undefined}
          detail={
            counts ? `${plural(adminCount, 'admin')} · ${plural(userCount, 'user')}` : undefined
          }
          failed={users.isError}
        />
        <StatCard
          icon={PawPrint}
          title="Total Pets"
          value={petTotal.data}
          detail="Registered across all accounts"
          failed={petTotal.isError}
        />
        <StatCard
          icon={Activity}
          title="Active Users"
          value={counts ? activeUsers : undefined}
          detail="Users with at least one pet"
          failed={users.isError}
        />
        <StatCard icon={HeartPulse} title="Platform Health" {...health} />
      </ul>

      <Card className="mt-8">
        <CardHeader className="px-4 sm:px-6">
          <CardTitle as="h2">User Management</CardTitle>
          <CardDescription>Search users, review their pets and manage roles.</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <UserTable
            users={users.data}
            isLoading={users.isPending}
            isError={users.isError}
            onRetry={() => void users.refetch()}
            currentUserId={currentUser?.id ?? ''}
            onViewDetails={(u) => setDetailsUserId(u.id)}
            onChangeRole={setRoleUser}
            total={users.total}
          />
          <LoadMore list={users} noun="users" count={false} />
        </CardContent>
      </Card>

      {children}

      <UserDetailsDialog
        user={detailsUser}
        dogs={detailsPets.data}
        dogsLoading={detailsPets.isPending}
        canDelete={canDelete}
        onOpenChange={(open) => {
          if (!open) setDetailsUserId(null);
        }}
      />
      <ChangeRoleDialog
        user={roleUser}
        onOpenChange={(open) => {
          if (!open) setRoleUser(null);
        }}
      />
    </section>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type StatCardProps = {
  icon: LucideIcon;
  title: string;
  value: number | string | undefined;
  detail?: string;
  failed?: boolean;
  tone?: 'default' | 'success' | 'muted';
};

function StatCard({
  icon: Icon,
  title,
  value,
  detail,
  failed = false,
  tone = 'default',
}: StatCardProps) {
  return (
    <li>
      <Card className="h-full">
        <CardContent className="flex items-start justify-between gap-2 p-3 sm:gap-4 sm:p-5">
          <div className="min-w-0">
            <p className="text-sm font-medium text-muted-foreground">{title}</p>
            {failed ? (
              <p className="mt-1 text-2xl font-bold text-muted-foreground">—</p>
            ) : value === undefined ? (
              <Skeleton className="mt-2 h-7 w-16" />
            ) : (
              <p
                className={cn(
                  'mt-1 text-2xl font-bold tabular-nums',
                  tone === 'success' && 'text-green-700',
                  tone === 'muted' && 'text-muted-foreground',
                )}
              >
                {value}
              </p>
            )}
            {detail ? (
              <p className="mt-1 text-xs text-muted-foreground">
                {failed ? 'Unavailable' : detail}
              </p>
            ) : null}
          </div>
          <span className="hidden size-10 shrink-0 items-center justify-center rounded-lg bg-orange-100 text-orange-700 sm:inline-flex">
            <Icon className="size-5" aria-hidden="true" />
          </span>
        </CardContent>
      </Card>
    </li>
  );
}
