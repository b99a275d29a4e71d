import { Button } from '@/components/ui/button';
import type { useOpenAlerts } from '@/lib/api/alerts';

/**
 * Said where open alerts are shown when they could not be loaded: without it an alert the
 * server holds would simply not be there, and the page would look safe.
 */
export function AlertsLoadFailed({ alerts }: { alerts: ReturnType<typeof useOpenAlerts> }) {
  if (!alerts.isError || alerts.isFetching) return null;
  return (
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      <span>
        <span className="font-semibold">Alerts could not be loaded.</span> An open alert may be
        missing here.
      </span>
      <Button variant="outline" size="sm" onClick={() => void alerts.refetch()}>
        Try Again
      </Button>
    </div>
  );
}
