import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { SafetyPage } from '@/features/safety/components/safety-page';

export default function SafetyRoute() {
  useDocumentTitle('Pet Safety Guide');
  return (
    <RoleGuard>
      <SafetyPage />
    </RoleGuard>
  );
}
