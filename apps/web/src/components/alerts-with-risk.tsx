import type { Alert, Device } from '@pawguard/shared';
import { AlertBanner } from '@/components/alert-banner';
import { HeatRisk, alertAboveRisk, riskCovers } from '@/components/heat-risk';

/**
 * Open alerts (a collar's, or those of every collar a pet wears) and the heat risk of the
 * collar that reported last while that reading is fresh (`risk`, else null), on the
 * Monitoring, home and My Pets cards. The why and the first aid are said once: by the risk
 * when it is at least the heat alert's level, else by the alert.
 */
export function AlertsWithRisk({
  alerts,
  risk,
  now,
  headingAs,
  canResolve,
}: {
  alerts: readonly Alert[];
  risk: Pick<
    Device,
    'id' | 'risk_band' | 'risk_score' | 'risk_reasons' | 'vitals_status' | 'threshold_status'
  > | null;
  now: number;
  headingAs?: 'h3' | 'h4';
  /** False where the viewer (an admin) does not own the collar: no Resolve. */
  canResolve: boolean;
}) {
  return (
    <>
      {alerts.map((alert) => (
        <AlertBanner
          key={alert.id}
          alert={alert}
          now={now}
          compact
          canResolve={canResolve}
          guidance={alert.device !== risk?.id || !riskCovers(risk.risk_band, alert)}
        />
      ))}
      {risk ? (
        <HeatRisk
          band={risk.risk_band}
          level={risk.vitals_status}
          thresholdStatus={risk.threshold_status}
          reasons={risk.risk_reasons}
          score={risk.risk_score}
          {...(headingAs ? { headingAs } : {})}
          firstAid={
            !alertAboveRisk(
              risk.risk_band,
              alerts.filter((a) => a.device === risk.id),
            )
          }
        />
      ) : null}
    </>
  );
}
