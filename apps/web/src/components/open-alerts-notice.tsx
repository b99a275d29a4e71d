import { StaleNotice } from '@/components/stale-notice';
import { Button } from '@/components/ui/button';

/** What the notice needs of an alerts query (the open alerts, or one device's). */
type AlertsQuery = {
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
  data?: { alerts: readonly unknown[]; total: number } | undefined;
};

/**
 * Said where open alerts are shown when not all of them are there: without it an alert the
 * server holds would simply be missing, and the page would look safe. When they could not be
 * loaded, it stays while they are asked for again (a failed list is failed until an answer
 * comes), so it neither flickers nor takes the focus away from its own button; when the
 * server holds more than one page of them, it says so quietly (a status, not an alert).
 */
export function OpenAlertsNotice({ alerts }: { alerts: AlertsQuery }) {
  // One page of them: an admin's fleet in a heatwave can hold more.
  const shown = alerts.data?.alerts.length ?? 0;
  if (!alerts.isError && alerts.data && alerts.data.total > shown)
    return (
      <StaleNotice title="Not every open alert is shown." action={null} role="status">
        {`Only the newest ${shown} of ${alerts.data.total} are shown: an older one may be missing from its card.`}
      </StaleNotice>
    );
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
