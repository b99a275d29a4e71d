import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { RegisterDevicePage } from '@/features/devices/components/register-device-page';

export default function RegisterDeviceRoute() {
  useDocumentTitle('Register Device');
  return (
    <RoleGuard>
      <RegisterDevicePage />
    </RoleGuard>
  );
}
