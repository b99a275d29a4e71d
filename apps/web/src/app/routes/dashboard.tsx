import { lazy, Suspense } from 'react';
import { useAuth } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { PageLoader } from '@/app/layouts/page-loader';
import { UserDashboard } from '@/features/dashboard/components/user-dashboard';

// An owner's phone never needs the admin's dashboard (user table, dialogs, waitlist): it loads
// only for an admin.
const AdminDashboardScreen = lazy(async () => {
  const [{ AdminDashboard }, { WaitlistAdminSection }] = await Promise.all([
    import('@/features/dashboard/components/admin-dashboard'),
    import('@/features/waitlist/components/waitlist-admin-section'),
  ]);
  return {
    default: () => (
      <AdminDashboard>
        <WaitlistAdminSection />
      </AdminDashboard>
    ),
  };
});

export default function DashboardRoute() {
  const { user } = useAuth();
  useDocumentTitle(user?.role === 'admin' ? 'Admin Dashboard' : 'Dashboard');
  return (
    <RoleGuard>
      {user?.role === 'admin' ? (
        <Suspense fallback={<PageLoader label="Loading dashboard..." />}>
          <AdminDashboardScreen />
        </Suspense>
      ) : user?.role === 'user' ? (
        <UserDashboard user={user} />
      ) : (
        <PageLoader label="Loading dashboard..." />
      )}
    </RoleGuard>
  );
}
