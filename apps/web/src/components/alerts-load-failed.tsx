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
    <div
      role="alert"
      className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-950"
    >
      <span>
        <span className="font-semibold">Alerts could not be loaded.</span> An open alert may be
        missing here.
      </span>
      <Button
        variant="outline"
        size="sm"
        disabled={alerts.isFetching}
        onClick={() => void alerts.refetch()}
      >
        {alerts.isFetching ? 'Loading alerts...' : 'Load alerts again'}
      </Button>
    </div>
  );
}

/** Whether an open heat alert is among these: then "Heat risk: low" would read as all clear. */
export const heatAlertOpen = (alerts: readonly { type: string }[] | undefined) =>
  alerts?.some((a) => a.type === 'heat') ?? false;
