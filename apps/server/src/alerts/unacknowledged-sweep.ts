import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_ESCALATION } from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AlertsRepository, UnacknowledgedAlert } from '../repositories/alerts-repository.js';
import type { DevicesRepository } from '../repositories/devices-repository.js';
import type { ReadingsRepository } from '../repositories/readings-repository.js';
import type { CommitEffects } from '../services/commit-effects.js';
import type { Clock } from '../services/clock.js';
import type { RecordNotices } from './offline-sweep.js';

/** How often the sweep looks for DANGER and CRITICAL alerts nobody acknowledged in time. */
export const UNACKNOWLEDGED_SWEEP_MS = 15_000;
const SWEEP_BATCH = 200;

/** How long an alert at this level may wait for an acknowledgement, for its pet. */
export function escalationMinutes(a: UnacknowledgedAlert): number {
  return a.level === 'CRITICAL'
    ? (a.critical_minutes ?? DEFAULT_ESCALATION.critical_minutes)
    : (a.danger_minutes ?? DEFAULT_ESCALATION.danger_minutes);
}

/**
 * Escalation with acknowledgement (docs/escalation.md): a DANGER or CRITICAL heat alert that
 * nobody acknowledges within its pet's minutes (default 15 and 5) since it reached its level is
 * told again, "not yet acknowledged": a notification, a mail and a push, as an escalation is.
 * Once a level: a DANGER reminded once is reminded again only when it turns CRITICAL. Each alert
 * in a transaction of its own that takes the device row's lock as ingest does and records the
 * reminder with a guarded UPDATE, so of several instances one sends it, and an acknowledgement
 * or a resolution that lands first stops it.
 */
export class UnacknowledgedSweep {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      alerts: AlertsRepository;
      devices: DevicesRepository;
      readings: ReadingsRepository;
      effects: CommitEffects;
      clock: Clock;
      log: FastifyBaseLogger;
      lockRows: boolean;
      record: RecordNotices;
    },
  ) {}

  /** Sends the reminders that are due; answers how many. */
  async sweep(): Promise<number> {
    const now = this.d.clock.now();
    // Every candidate is looked at, page by page: one not due yet never hides one that is.
    const due: UnacknowledgedAlert[] = [];
    for (let offset = 0; ; offset += SWEEP_BATCH) {
      const page = await this.d.alerts.unacknowledged(SWEEP_BATCH, offset);
      for (const a of page)
        if (now.getTime() - Date.parse(a.since) >= escalationMinutes(a) * 60_000) due.push(a);
      if (page.length < SWEEP_BATCH) break;
    }
    let n = 0;
    for (const a of due) {
      // The reading it is told with: the collar's latest, what the dog is in now.
      const reading = (await this.d.readings.latest(a.device_uuid)) ?? null;
      const outcome = await this.d.db.transaction().execute(async (trx) => {
        await this.d.devices.lockRow(a.device_uuid, trx, this.d.lockRows);
        const at = now.toISOString();
        if (!(await this.d.alerts.markReminded(a.id, a.level, at, trx))) return null;
        const [alert] = await this.d.alerts
          .openFor(a.device_uuid, trx)
          .then((open) => open.filter((o) => o.id === a.id));
        if (!alert) return null;
        return this.d.record(
          trx,
          a.user_id,
          a.device_uuid,
          [a.id],
          [{ kind: 'unacknowledged', alert, reading }],
          now,
        );
      });
      if (!outcome) continue;
      n++;
      this.d.effects.handle(outcome, 'reminder events not published');
    }
    if (n)
      this.d.log.info(
        { event: 'alerts.unacknowledged', alerts: n },
        'heat alerts nobody acknowledged in time were sent again',
      );
    return n;
  }

  start(): void {
    const run = () => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .catch((err: unknown) => this.d.log.error({ err }, 'reminder sweep failed'))
        .finally(() => (this.sweeping = undefined));
    };
    this.timer = setInterval(run, UNACKNOWLEDGED_SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
