import { PagePlaceholder } from '@/components/page-placeholder';

export function AdminPortalPage() {
  return (
    <PagePlaceholder
      title="Admin Portal"
      description="Pre-populate devices with their hardware addresses and review the fleet."
    />
  );
}
