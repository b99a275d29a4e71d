import { PagePlaceholder } from '@/components/page-placeholder';

export function DevicesPage() {
  return (
    <PagePlaceholder
      title="Device Management"
      description="Register collars, name them and see their battery and status."
    />
  );
}
