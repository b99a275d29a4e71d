import { MESSAGES } from '@pawguard/shared';
import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { AllDevicesPage } from '@/features/admin/components/all-devices-page';

export default function AdminDevicesRoute() {
  useDocumentTitle('All Devices');
  return (
    <RoleGuard roles={['admin']} deniedToast={MESSAGES.adminOnly}>
      <AllDevicesPage />
    </RoleGuard>
  );
}
