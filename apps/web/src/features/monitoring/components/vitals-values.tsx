import type { ReactNode } from 'react';
import { ShieldAlert, ShieldCheck, Wifi, WifiOff } from 'lucide-react';
import { formatOneDecimal } from '@pawguard/shared';
import { Badge } from '@/components/ui/badge';
import { Temperature } from '@/lib/display-units';
import { cn } from '@/lib/utils';

const formatHumidity = (percent: number) => `${formatOneDecimal(percent)}%`;

/** Safe-zone status (spec section 4): Safe when the server's status is SAFE, else Danger. */
function SafeZoneBadge({ status }: { status: string | null }) {
  if (status === null) return <span className="text-muted-foreground">—</span>;
  if (status === 'SAFE')
    return (
      <Badge variant="success">
        <ShieldCheck aria-hidden="true" />
        Safe
      </Badge>
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1.5">
      <Badge variant="destructive">
        <ShieldAlert aria-hidden="true" />
        Danger
      </Badge>
      {/* The server's level, when it says more than Danger (Warning, Critical). */}
      {status === 'DANGER' ? null : (
        <span className="text-xs font-medium text-muted-foreground">
          {status.charAt(0) + status.slice(1).toLowerCase()}
        </span>
      )}
    </span>
  );
}

/** Spec section 4: Connected while the latest reading is under 2 minutes old. */
export function ConnectionBadge({ connected }: { connected: boolean }) {
  return connected ? (
    <Badge variant="success" data-connection="connected">
      <Wifi aria-hidden="true" />
      Connected
    </Badge>
  ) : (
    <Badge variant="muted" data-connection="disconnected">
      <WifiOff aria-hidden="true" />
      Disconnected
    </Badge>
  );
}

/**
 * One labelled value. `flashKey` changes with each changed reading, which remounts the value
 * and replays its brief highlight.
 */
export function VitalsValue({
  label,
  children,
  flashKey,
  className,
}: {
  label: string;
  children: ReactNode;
  flashKey?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd
        key={flashKey}
        data-changed={flashKey ? 'true' : undefined}
        className={cn(
          '-mx-1 rounded px-1 font-semibold tabular-nums',
          flashKey && 'animate-reading-flash',
        )}
      >
        {children}
      </dd>
    </div>
  );
}

type VitalsFieldsProps = {
  temperature: number;
  humidity: number | null;
  status: string | null;
  heartRate: number | null;
  activity: number | null;
  /** The highlight key of each changed value (Monitoring's changed readings). */
  flash?: (field: 'temperature' | 'humidity' | 'status') => string | undefined;
  temperatureLabel?: string;
};

/** The values of a reading, for a <dl>: heart rate and activity level only when present. */
export function VitalsFields({
  temperature,
  humidity,
  status,
  heartRate,
  activity,
  flash = () => undefined,
  temperatureLabel = 'Temperature',
}: VitalsFieldsProps) {
  return (
    <>
      <VitalsValue
        label={temperatureLabel}
        flashKey={flash('temperature')}
        className="col-span-2 text-2xl"
      >
        <Temperature celsius={temperature} />
      </VitalsValue>
      <VitalsValue label="Humidity" flashKey={flash('humidity')} className="text-lg">
        {humidity === null ? '—' : formatHumidity(humidity)}
      </VitalsValue>
      <VitalsValue label="Safe zone" flashKey={flash('status')}>
        <SafeZoneBadge status={status} />
      </VitalsValue>
      {heartRate !== null ? <VitalsValue label="Heart rate">{heartRate} bpm</VitalsValue> : null}
      {activity !== null ? <VitalsValue label="Activity level">{activity}%</VitalsValue> : null}
    </>
  );
}
