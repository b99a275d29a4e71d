import { PagePlaceholder } from '@/components/page-placeholder';

export function AllDevicesPage() {
  return (
    <PagePlaceholder
      title="All Devices"
      description="Every device on the platform, its owner, status and latest vitals."
    />
  );
}
