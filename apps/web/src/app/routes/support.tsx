import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { SupportPage } from '@/features/support/components/support-page';

export default function SupportRoute() {
  useDocumentTitle('Support');
  return (
    <RoleGuard>
      <SupportPage />
    </RoleGuard>
  );
}
