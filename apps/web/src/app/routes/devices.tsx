import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { DevicesPage } from '@/features/devices/components/devices-page';

export default function DevicesRoute() {
  useDocumentTitle('Devices');
  return (
    <RoleGuard>
      <DevicesPage />
    </RoleGuard>
  );
}
