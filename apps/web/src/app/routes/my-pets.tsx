import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { MyPetsPage } from '@/features/pets/components/my-pets-page';

export default function MyPetsRoute() {
  useDocumentTitle('My Pets');
  return (
    <RoleGuard>
      <MyPetsPage />
    </RoleGuard>
  );
}
