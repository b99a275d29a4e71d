import { StaleNotice } from '@/components/stale-notice';
import { Button } from '@/components/ui/button';

/** What the notice needs of an alerts query (the open alerts, or one device's). */
type AlertsQuery = { isError: boolean; isFetching: boolean; refetch: () => unknown };

/**
 * Said where open alerts are shown when they could not be loaded: without it an alert the
 * server holds would simply not be there, and the page would look safe. It stays while the
 * alerts are asked for again (a failed list is failed until an answer comes), so it neither
 * flickers nor takes the focus away from its own button.
 */
export function AlertsLoadFailed({ alerts }: { alerts: AlertsQuery }) {
  if (!alerts.isError) return null;
  return (
    <StaleNotice
      title="Alerts could not be loaded."
      action={
        <Button
          variant="outline"
          size="sm"
          disabled={alerts.isFetching}
          onClick={() => void alerts.refetch()}
        >
          {alerts.isFetching ? 'Loading alerts...' : 'Load alerts again'}
        </Button>
      }
    >
      An open alert may be missing here.
    </StaleNotice>
  );
}
