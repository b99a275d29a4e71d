import { useParams } from 'react-router';
import { RoleGuard } from '@/app/guards/role-guard';
import { HealthDashboardPage } from '@/features/health/components/health-dashboard-page';

/** Lazily loaded: the chart library comes with this screen (and the device history) only. */
export default function PetHealthRoute() {
  const { id = '' } = useParams();
  return (
    <RoleGuard>
      {/* A fresh page per pet, so nothing of one pet's screen carries over to another. */}
      <HealthDashboardPage key={id} dogId={id} />
    </RoleGuard>
  );
}
