import { PagePlaceholder } from '@/components/page-placeholder';

export function NotificationSettingsPage() {
  return (
    <PagePlaceholder
      title="Notification Settings"
      description="Choose when PawGuard e-mails you and the temperatures that trigger an alert."
    />
  );
}
