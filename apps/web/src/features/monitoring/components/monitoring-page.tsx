import { PagePlaceholder } from '@/components/page-placeholder';

export function MonitoringPage() {
  return (
    <PagePlaceholder
      title="Device Monitoring Dashboard"
      description="Live body temperature, humidity and safe-zone status from every collar."
    />
  );
}
