import { useAuth } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { PageLoader } from '@/app/layouts/page-loader';
import { AdminDashboard } from '@/features/dashboard/components/admin-dashboard';
import { UserDashboard } from '@/features/dashboard/components/user-dashboard';
import { WaitlistAdminSection } from '@/features/waitlist/components/waitlist-admin-section';

export default function DashboardRoute() {
  const { user } = useAuth();
  useDocumentTitle(user?.role === 'admin' ? 'Admin Dashboard' : 'Dashboard');
  return (
    <RoleGuard>
      {user?.role === 'admin' ? (
        <AdminDashboard>
          <WaitlistAdminSection />
        </AdminDashboard>
      ) : user?.role === 'user' ? (
        <UserDashboard user={user} />
      ) : (
        <PageLoader label="Loading dashboard..." />
      )}
    </RoleGuard>
  );
}
