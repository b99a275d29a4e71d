import { useDocumentTitle } from '@/lib/use-document-title';
import { RoleGuard } from '@/app/guards/role-guard';
import { NotificationSettingsPage } from '@/features/notifications/components/notification-settings-page';

export default function NotificationsRoute() {
  useDocumentTitle('Notification Settings');
  return (
    <RoleGuard>
      <NotificationSettingsPage />
    </RoleGuard>
  );
}
