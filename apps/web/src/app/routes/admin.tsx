import { MESSAGES } from '@pawguard/shared';
import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { AdminPortalPage } from '@/features/admin/components/admin-portal-page';

export default function AdminRoute() {
  useDocumentTitle('Admin Portal');
  return (
    <RoleGuard roles={['admin']} deniedToast={MESSAGES.adminOnly}>
      <AdminPortalPage />
    </RoleGuard>
  );
}
