import { useParams } from 'react-router';
import { RoleGuard } from '@/app/guards/role-guard';
import { DeviceHistoryPage } from '@/features/monitoring/components/device-history-page';

/** Lazily loaded: the chart library comes with this screen only. */
export default function DeviceHistoryRoute() {
  const { id = '' } = useParams();
  return (
    <RoleGuard>
      {/* A fresh page per device, so nothing of one device's screen carries over to another. */}
      <DeviceHistoryPage key={id} deviceId={id} />
    </RoleGuard>
  );
}
