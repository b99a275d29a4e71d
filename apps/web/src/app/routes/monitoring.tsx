import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { MonitoringPage } from '@/features/monitoring/components/monitoring-page';

export default function MonitoringRoute() {
  useDocumentTitle('Monitoring');
  return (
    <RoleGuard>
      <MonitoringPage />
    </RoleGuard>
  );
}
