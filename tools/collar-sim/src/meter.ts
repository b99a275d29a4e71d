// Counts what the simulator sends and what comes back, and words it, once a second.
import { VITALS_STATUSES, type VitalsStatus } from '@pawguard/shared';

export interface Counts {
  sent: number;
  acked: number;
  errors: number;
  /** Acknowledged readings by status (the server's over HTTP, the collar's own over MQTT). */
  byStatus: Record<VitalsStatus, number>;
  /** Failures by kind ('401 Invalid device key', 'network: ECONNREFUSED', …). */
  byError: Map<string, number>;
}

const emptyCounts = (): Counts => ({
  sent: 0,
  acked: 0,
  errors: 0,
  byStatus: { SAFE: 0, WARNING: 0, DANGER: 0, CRITICAL: 0 },
  byError: new Map(),
});

export class Meter {
  private window = emptyCounts();
  readonly total = emptyCounts();

  sent(): void {
    this.window.sent++;
    this.total.sent++;
  }

  acked(status: VitalsStatus): void {
    for (const c of [this.window, this.total]) {
      c.acked++;
      c.byStatus[status]++;
    }
  }

  failed(kind: string): void {
    for (const c of [this.window, this.total]) {
      c.errors++;
      c.byError.set(kind, (c.byError.get(kind) ?? 0) + 1);
    }
  }

  /** The counts since the last call, and a fresh window. */
  take(): Counts {
    const w = this.window;
    this.window = emptyCounts();
    return w;
  }
}

function statusPart(c: Counts): string {
  return VITALS_STATUSES.filter((s) => c.byStatus[s] > 0)
    .map((s) => `${s} ${c.byStatus[s]}`)
    .join(' ');
}

function errorPart(c: Counts): string {
  return [...c.byError].map(([kind, n]) => `${n}× ${kind}`).join(', ');
}

/** One line for one window of `seconds`: rate, acknowledgements, errors and statuses. */
export function formatWindow(c: Counts, seconds: number, inFlight: number): string {
  const rate = seconds > 0 ? c.sent / seconds : 0;
  const parts = [
    `sent ${rate.toFixed(rate < 10 ? 1 : 0)}/s`,
    `acked ${c.acked}`,
    `errors ${c.errors}`,
    `in flight ${inFlight}`,
  ];
  const statuses = statusPart(c);
  if (statuses) parts.push(`| ${statuses}`);
  const errors = errorPart(c);
  if (errors) parts.push(`| ${errors}`);
  return parts.join('  ');
}

/** The summary at the end of a run. */
export function formatTotal(c: Counts, seconds: number): string {
  const lines = [
    `Sent ${c.sent} readings in ${seconds.toFixed(0)} s (${(seconds > 0 ? c.sent / seconds : 0).toFixed(1)}/s): ` +
      `${c.acked} acknowledged, ${c.errors} failed.`,
  ];
  const statuses = statusPart(c);
  if (statuses) lines.push(`By status: ${statuses}.`);
  const errors = errorPart(c);
  if (errors) lines.push(`Failures: ${errors}.`);
  return lines.join('\n');
}
