import { PagePlaceholder } from '@/components/page-placeholder';

export function RegisterDevicePage() {
  return (
    <PagePlaceholder
      title="Register Device"
      description="Pick a pet, name the device and get a collar assigned to it."
    />
  );
}
