import { useId } from 'react';
import { toast } from 'sonner';
import type { Alert } from '@pawguard/shared';
import { Button } from '@/components/ui/button';
import { useAcknowledgeAlert, useResolveAlert } from '@/lib/api/alerts';

/** An alert's type in words: in lists, and in the buttons' names (lower case there). */
export const ALERT_TYPE_WORDS: Record<Alert['type'], string> = {
  heat: 'Heat',
  offline: 'Offline',
  low_battery: 'Low battery',
  collar_off: 'Collar off?',
  over_budget: 'Readings refused',
};

/**
 * A button's name: what it does, to which alert and whose ("Resolve heat alert for Biscuit"),
 * so that a page with several open alerts offers buttons a screen reader can tell apart. It
 * starts with the visible word, so speech input ("click Resolve") still finds it.
 */
function actionLabel(action: 'Resolve' | 'Acknowledge', alert: Alert): string {
  const whose = alert.dog_name ?? alert.device_name ?? alert.device_id;
  return `${action} ${ALERT_TYPE_WORDS[alert.type].toLowerCase()} alert for ${whose}`;
}

export const resolveLabel = (alert: Alert) => actionLabel('Resolve', alert);
export const acknowledgeLabel = (alert: Alert) => actionLabel('Acknowledge', alert);

/**
 * What resolving an open heat alert leads to (decision 0037): an open alert does not repeat, but
 * once resolved, a reading that is not Safe again (Warning or above) opens a new one. The
 * Resolve button's description, shown beside it.
 */
export const RESOLVE_WHILE_HOT =
  'If you resolve it while still hot (Warning or above), PawGuard opens a new alert and tells you again.';
/** The toast after Resolve on a heat alert. */
export const RESOLVED_WHILE_HOT =
  'If the next reading is still hot (Warning or above), PawGuard opens a new alert and tells you again.';
const ACKNOWLEDGED_WHAT =
  'No repeat alerts while it stays like this. PawGuard keeps watching and tells you if it gets worse.';
export const ACKNOWLEDGED = `Acknowledged: ${ACKNOWLEDGED_WHAT.charAt(0).toLowerCase()}${ACKNOWLEDGED_WHAT.slice(1)}`;

/**
 * Resolve, and for a heat alert Acknowledge beside it, each saying before and after what it
 * does. Only the collar's owner gets them.
 */
export function AlertActions({ alert }: { alert: Alert }) {
  const resolve = useResolveAlert();
  const acknowledge = useAcknowledgeAlert();
  const hintId = useId();
  const heat = alert.type === 'heat';
  const acknowledged = heat && alert.acknowledged_at !== null;
  const busy = resolve.isPending || acknowledge.isPending;
  return (
    <div className="flex flex-col items-end gap-1">
      {acknowledged ? <p className="max-w-xs text-right text-xs">{ACKNOWLEDGED}</p> : null}
      <div className="flex flex-wrap items-start justify-end gap-2">
        {heat && !acknowledged ? (
          <Button
            size="sm"
            variant="outline"
            className="bg-card"
            aria-label={acknowledgeLabel(alert)}
            disabled={busy}
            onClick={() =>
              acknowledge.mutate(alert, {
                onSuccess: () =>
                  toast.success('Alert acknowledged', {
                    description: ACKNOWLEDGED_WHAT,
                  }),
                onError: (error) =>
                  toast.error('Failed to acknowledge alert', { description: error.message }),
              })
            }
          >
            Acknowledge
          </Button>
        ) : null}
        {/* Resolve with what it leads to right under it: the text is about Resolve only. */}
        <div className="flex max-w-xs flex-col items-end gap-1">
          <Button
            size="sm"
            variant="outline"
            className="bg-card"
            aria-label={resolveLabel(alert)}
            aria-describedby={heat ? hintId : undefined}
            disabled={busy}
            onClick={() =>
              resolve.mutate(alert, {
                onSuccess: () =>
                  heat
                    ? toast.success('Alert resolved', {
                        description: RESOLVED_WHILE_HOT,
                      })
                    : toast.success('Alert resolved'),
                onError: (error) =>
                  toast.error('Failed to resolve alert', { description: error.message }),
              })
            }
          >
            Resolve
          </Button>
          {heat ? (
            <p id={hintId} className="text-right text-xs">
              {RESOLVE_WHILE_HOT}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
