import { useAllDevices } from '@/lib/api/get-all-devices';
import { useDevices } from '@/lib/api/get-devices';
import { useAuth } from '@/lib/auth';
import { useLiveFallback } from '@/lib/realtime';

/** Spec section 9: the Monitoring page polls every 120 s (here: only while the stream is down). */
export const MONITORING_POLL_MS = 120_000;

/** An admin monitors every device (GET /api/devices/all), an owner their own (GET /api/devices). */
export function useMonitoredDevices() {
  const { isAdmin } = useAuth();
  const refetchIntervalMs = useLiveFallback(MONITORING_POLL_MS);
  const own = useDevices({ enabled: !isAdmin, refetchIntervalMs });
  const all = useAllDevices({ enabled: isAdmin, refetchIntervalMs });
  return isAdmin ? { ...all, paged: all } : { ...own, paged: null };
}
