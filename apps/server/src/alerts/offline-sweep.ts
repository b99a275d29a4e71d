import type { Kysely, Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { offlineCutoff } from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AlertsRepository } from '../repositories/alerts-repository.js';
import type { OfflineSweepRepository } from '../repositories/offline-sweep-repository.js';
import type { BusMessage } from '../services/event-bus.js';
import {
  addEffects,
  noEffects,
  type CommitEffects,
  type Effects,
} from '../services/commit-effects.js';
import type { Clock } from '../services/clock.js';
import { newAlert, type PendingNotice } from './alert-rows.js';

/** How often the offline sweep looks for silent collars. */
export const OFFLINE_SWEEP_MS = 30_000;
/** Collars taken offline per sweep transaction batch (the rest wait for the next sweep). */
const SWEEP_BATCH = 200;

/**
 * Records the notifications of some notices in `trx` (the alert engine's, so an offline
 * alert is told exactly as one that ingest opened) and answers what it caused, for after the
 * commit.
 */
export type RecordNotices = (
  trx: Transaction<Database>,
  ownerId: string,
  deviceUuid: string,
  touched: string[],
  notices: PendingNotice[],
  now: Date,
) => Promise<Effects>;

/**
 * The offline sweep: every 30 s, on every instance, it takes collars silent for 10 minutes
 * offline and opens their offline alert (its next reading resolves it, in the ingest step).
 */
export class OfflineSweep {
  private timer: NodeJS.Timeout | undefined;
  /** Silence before this instance began listening was our outage, not the collars'. */
  private listeningSince: Date;
  private sweeping: Promise<unknown> | undefined;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      devices: OfflineSweepRepository;
      alerts: AlertsRepository;
      /** Where each collar's transaction's effects go once committed. */
      effects: CommitEffects;
      clock: Clock;
      log: FastifyBaseLogger;
      record: RecordNotices;
    },
  ) {
    this.listeningSince = d.clock.now();
  }

  /**
   * Takes collars silent for 10 minutes offline and opens their offline alert. Each collar in
   * a transaction of its own, guarded by the condition itself (still active, still silent),
   * so of several instances sweeping at once exactly one acts on a collar, and a reading that
   * arrives meanwhile wins. Answers how many went offline.
   */
  async sweep(): Promise<number> {
    const now = this.d.clock.now();
    const due = offlineCutoff(now, this.listeningSince);
    if (!due) return 0;
    const cutoff = due.toISOString();
    const candidates = await this.d.devices.silentSince(cutoff, SWEEP_BATCH);
    let n = 0;
    for (const { id } of candidates) {
      const outcome = await this.d.db.transaction().execute(async (trx) => {
        const at = now.toISOString();
        const r = await this.d.devices.takeOffline(id, cutoff, at, trx);
        if (!r?.user_id) return null;
        const existing = (await this.d.alerts.openFor(id, trx)).find((a) => a.type === 'offline');
        const messages: BusMessage[] = [
          { audience: [r.user_id], event: { type: 'device', device: id, change: 'updated' } },
        ];
        if (existing) return { ...noEffects(), events: messages };
        const alert = newAlert({
          device_uuid: id,
          user_id: r.user_id,
          type: 'offline',
          opened_at: at,
          reading_at: r.vitals_recorded_at ?? r.last_seen,
        });
        await this.d.alerts.insert(alert, trx);
        const out = await this.d.record(
          trx,
          r.user_id,
          id,
          [alert.id],
          [{ kind: 'opened', alert, reading: null }],
          now,
        );
        return addEffects({ ...noEffects(), events: messages }, out);
      });
      if (!outcome) continue;
      n++;
      this.d.effects.handle(outcome, 'offline alert events not published');
    }
    if (n) this.d.log.info({ event: 'alerts.offline', collars: n }, 'collars went offline');
    return n;
  }

  start(): void {
    this.listeningSince = this.d.clock.now();
    const run = () => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .catch((err: unknown) => {
          // Likely the database is out: silence is counted afresh from when it is back.
          this.listeningSince = this.d.clock.now();
          this.d.log.error({ err }, 'offline sweep failed');
        })
        .finally(() => (this.sweeping = undefined));
    };
    this.timer = setInterval(run, OFFLINE_SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
