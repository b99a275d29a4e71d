import type { Kysely, Transaction } from 'kysely';
import {
  parseRiskState,
  type ParsedReading,
  type Reading,
  type RiskState,
  type VitalsStatus,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { DevicesRepository } from '../repositories/devices-repository.js';
import type {
  NewReadingRow,
  ReadingRow,
  ReadingsRepository,
} from '../repositories/readings-repository.js';
import type { Clock } from '../services/clock.js';
import type { RollupWriter } from '../services/rollups.js';
import type { Metrics } from '../services/metrics.js';
import {
  addEffects,
  noEffects,
  type CommitEffects,
  type Effects,
} from '../services/commit-effects.js';
import { ForbiddenError, UnauthorizedError } from '../services/errors.js';
import type { IngestBudget } from '../services/ingest-budget.js';
import { toReading, withLevel } from '../services/reading-mapper.js';
import { CommitQueue, serverTime, sliceStored, type Job, type JobResults } from './commit-queue.js';
import { toIngestDevice, type IngestDevice, type StoredReading } from './ingest-device.js';
import { evaluate } from './evaluate.js';
import { projectDevice } from './device-projection.js';
import { IngestStats } from './ingest-stats.js';

/**
 * The alerts, as ingest calls them inside its transaction, once per device and batch, after
 * its readings are stored and its row written: alerts, notifications and their mail outbox
 * rows commit (or not) together with the readings they come from. `stored` holds the
 * readings this batch inserted, oldest first. Answers what it caused, or nothing.
 */
export interface IngestAlerts {
  apply(
    trx: Transaction<Database>,
    device: IngestDevice,
    stored: StoredReading[],
    now: Date,
  ): Promise<Effects | undefined>;
}

export interface IngestOptions {
  db: Kysely<Database>;
  devices: DevicesRepository;
  readings: ReadingsRepository;
  /** Each collar's minute and hour rollups, written with the readings they sum up. */
  rollups: RollupWriter;
  /** The alert rules, applied in every ingest transaction. */
  alerts: IngestAlerts;
  /** Where a commit's live events and mail go once it is on disk. */
  effects: CommitEffects;
  clock: Clock;
  /**
   * Lock the posting devices' rows for the batch, and, holding them, write them all back in
   * one statement (PostgreSQL, where each statement is a round trip). Without it (SQLite: one
   * writer, in process) each collar's row is written on its own with only what changed.
   */
  lockRows?: boolean;
  /** How long to gather readings into one commit when none is in progress (ms). */
  gatherMs?: number;
  /** A batch is committed at once when it holds this many readings. */
  maxBatch?: number;
  /** Counts each commit's size and time. */
  metrics?: Metrics;
  /**
   * The ingest budgets and storage quota (RES-7): every upload is charged to its collar before
   * it waits for a commit, and to its owner's account inside the transaction.
   */
  budget?: IngestBudget;
}

/** An owned collar posts; a released (unassigned) or unregistered one cannot. */
const CAN_POST = new Set(['assigned', 'active']);
const NOT_REGISTERED =
  'This collar is not registered to an owner, so it cannot post readings. Register it to a pet first.';

/** At most this many parsed risk states are kept (about 4 KB each with their JSON). */
const RISK_STATE_CACHE = 10_000;

/** What one committed batch answers, and what it caused. */
interface BatchOutcome {
  results: JobResults;
  effects: Effects;
  /** What the rollups remember once the batch has committed. */
  remember: () => void;
  inserted: number;
  /** Readings inserted per owner account (their quota counts). */
  insertedByAccount: Map<string, number>;
}

/**
 * Where a reading goes after the route (routes/api/vitals.ts) or the MQTT endpoint has
 * checked it: charged to its collar's budget, queued for a group commit (commit-queue.ts),
 * then, in that commit's one transaction, judged (evaluate.ts), inserted, its collar's row
 * projected (device-projection.ts) and written, its rollups updated, and the alerts applied;
 * after the commit, what it caused goes out (CommitEffects) and every caller is answered.
 */
export class IngestService {
  private readonly queue: CommitQueue;
  /** Readings stored and commits made, logged a minute at a time. */
  readonly stats = new IngestStats();
  /**
   * The risk state this server last wrote per collar, with its JSON: when the row still holds
   * that JSON, the state is taken as it is instead of parsed again (states are never changed
   * in place; riskStep answers a new one).
   */
  private readonly riskStates = new Map<string, { json: string; state: RiskState }>();

  constructor(private readonly o: IngestOptions) {
    this.queue = new CommitQueue({
      commit: (jobs, readings) => this.commit(jobs, readings),
      ...(o.gatherMs !== undefined ? { gatherMs: o.gatherMs } : {}),
      ...(o.maxBatch !== undefined ? { maxBatch: o.maxBatch } : {}),
    });
  }

  /**
   * Stores the readings of one device; resolves with what was stored, in the order given (a
   * reading already stored answers the stored one), once it is on disk.
   */
  async submit(deviceUuid: string, readings: ParsedReading[], bytes = 0): Promise<Reading[]> {
    // A collar over its budget is refused here, before it takes a place in a commit.
    this.o.budget?.chargeCollar(deviceUuid, readings.length, bytes, this.o.clock.now().getTime());
    return this.queue.submit(deviceUuid, readings, bytes);
  }

  /** Commits what is pending and waits for every commit in progress (shutdown, tests). */
  drain(): Promise<void> {
    return this.queue.drain();
  }

  /** Commits made since start. */
  get batchCount(): number {
    return this.stats.commits;
  }

  /** Logs one line a minute with what was stored, instead of a line per reading. */
  startStats(log: { info: (o: object, msg: string) => void }): void {
    this.stats.start(log);
  }

  stopStats(): void {
    this.stats.stop();
  }

  /** One batch: one transaction, then its effects, then its answers (by the queue). */
  private async commit(jobs: Job[], readings: number): Promise<JobResults> {
    const now = this.o.clock.now();
    const started = performance.now();
    const outcome = await this.o.db.transaction().execute((trx) => this.store(trx, jobs, now));
    this.o.metrics?.commit(readings, performance.now() - started);
    this.stats.committed(outcome.inserted);
    for (const [account, n] of outcome.insertedByAccount) this.o.budget?.addStored(account, n);
    this.o.effects.handle(outcome.effects, 'live events of stored readings lost');
    outcome.remember();
    return outcome.results;
  }

  private async store(trx: Transaction<Database>, jobs: Job[], now: Date): Promise<BatchOutcome> {
    const ids = [...new Set(jobs.map((j) => j.deviceUuid))].sort();
    // Locked (PostgreSQL) in id order: a release or another instance's batch for the same
    // collar waits for this commit, or this one sees its result, never a mix.
    const rowsById = new Map(
      (await this.o.devices.ingestStates(ids, trx, this.o.lockRows ?? false)).map((r) => [r.id, r]),
    );
    const devices = new Map<string, IngestDevice>();
    const results: JobResults = new Map();
    const nowMs = now.getTime();
    const budget = this.o.budget;
    if (budget) {
      const owners = new Set<string>();
      for (const r of rowsById.values()) if (r.user_id) owners.add(r.user_id);
      const stale = budget.staleAccounts(owners, nowMs);
      if (stale.length)
        budget.storedKnown(stale, await this.o.devices.storedByOwner(stale, trx), nowMs);
    }
    // Per device: the readings of this batch by time. A reading without a timestamp takes the
    // commit time, moved on by a millisecond while that is taken: it is a reading of its own,
    // never a repeat of another.
    const byDevice = new Map<string, Map<number, ParsedReading>>();
    const serverTimed = new Map<string, Set<number>>();
    const timesOf = new Map<Job, number[]>();
    for (const job of jobs) {
      const r = rowsById.get(job.deviceUuid);
      if (!r) {
        // Removed since its key was checked.
        results.set(job, new UnauthorizedError('A valid device key is required'));
        continue;
      }
      const owner = r.user_id;
      if (!owner || !CAN_POST.has(r.registration_status)) {
        results.set(job, new ForbiddenError(NOT_REGISTERED));
        continue;
      }
      const refused =
        job.charge &&
        budget?.chargeAccount(owner, r.id, job.charge.readings, job.charge.bytes, nowMs);
      if (refused) {
        results.set(job, refused);
        continue;
      }
      if (!devices.has(r.id)) {
        devices.set(r.id, toIngestDevice(r, owner, this.riskStateOf(r.id, r.risk_state)));
        byDevice.set(r.id, new Map());
        serverTimed.set(r.id, new Set());
      }
      const times = byDevice.get(r.id)!;
      const own = serverTimed.get(r.id)!;
      const jobTimes: number[] = [];
      for (const reading of job.readings) {
        let at = reading.timestamp;
        if (at === undefined) {
          at = serverTime(job, nowMs, times);
          own.add(at);
        }
        if (!times.has(at)) times.set(at, reading);
        jobTimes.push(at);
      }
      timesOf.set(job, jobTimes);
    }

    // Each collar's readings judged (pure), then inserted.
    let pending: NewReadingRow[] = [];
    for (const [deviceUuid, times] of byDevice) {
      const device = devices.get(deviceUuid)!;
      const judged = evaluate(device, times, nowMs);
      device.risk = judged.risk;
      device.collarOff.readings = judged.offReadings;
      device.collarOff.news = judged.offNews;
      device.present = judged.present;
      for (const row of judged.rows) pending.push(row);
    }
    const stored = new Map<string, Map<number, ReadingRow>>();
    let inserted: ReadingRow[] = [];
    // A server-timed reading that meets a stored one moves on a millisecond and is inserted
    // again; collar-timed repeats are answered with what is stored.
    for (let attempt = 0; pending.length && attempt < 5; attempt++) {
      const fresh = await this.o.readings.insertNew(pending, trx);
      inserted = inserted.concat(fresh);
      for (const row of fresh) {
        let m = stored.get(row.device_uuid);
        if (!m) stored.set(row.device_uuid, (m = new Map()));
        m.set(Number(row.recorded_at), row);
      }
      const retry: NewReadingRow[] = [];
      for (const row of pending) {
        if (stored.get(row.device_uuid)?.has(row.recorded_at)) continue;
        const own = serverTimed.get(row.device_uuid)!;
        if (!own.has(row.recorded_at)) continue;
        const times = byDevice.get(row.device_uuid)!;
        let at = row.recorded_at + 1;
        while (times.has(at)) at++;
        // Keep each job's answer pointing at where its reading went.
        for (const ts of timesOf.values())
          for (let i = 0; i < ts.length; i++) if (ts[i] === row.recorded_at) ts[i] = at;
        times.set(at, times.get(row.recorded_at)!);
        times.delete(row.recorded_at);
        own.delete(row.recorded_at);
        own.add(at);
        retry.push({ ...row, recorded_at: at });
      }
      pending = retry;
    }
    // Times stored before this batch: answered with the stored reading.
    for (const [deviceUuid, times] of byDevice) {
      const have = stored.get(deviceUuid) ?? new Map<number, ReadingRow>();
      stored.set(deviceUuid, have);
      const missing = [...times.keys()].filter((t) => !have.has(t));
      for (const row of await this.o.readings.findAt(deviceUuid, missing, trx))
        have.set(Number(row.recorded_at), row);
    }

    const effects = noEffects();
    const caused = noEffects();
    // Each collar's row as this batch leaves it, written for all of them before the alerts run.
    const insertedBy = new Map<string, ReadingRow[]>();
    for (const r of inserted) {
      const list = insertedBy.get(r.device_uuid);
      if (list) list.push(r);
      else insertedBy.set(r.device_uuid, [r]);
    }
    const written = [...devices.values()].map((device) => {
      const fresh = (insertedBy.get(device.id) ?? []).sort(
        (a, b) => Number(a.recorded_at) - Number(b.recorded_at),
      );
      const projection = projectDevice(device, fresh, now);
      this.rememberRiskState(device.id, projection.riskState, device.risk);
      return { device, fresh, before: device.state.vitals_recorded_at, ...projection };
    });
    // Locked rows are written back whole, in one statement (see lockRows).
    if (this.o.lockRows)
      await this.o.devices.updateIngested(
        written.map((w) => w.row),
        trx,
      );
    else
      for (const { device, changes } of written)
        await this.o.devices.updateHeld(device.id, device.user_id, changes, trx);
    const remember = await this.o.rollups.record(
      trx,
      insertedBy,
      new Map(
        written.map(({ device, patch }) => [
          device.id,
          { before: device.previous.last_seen, after: patch.last_seen! },
        ]),
      ),
    );
    for (const { device, fresh, before, patch } of written) {
      device.state = patch;
      const storedReadings = fresh.map((row) => ({ row, status: row.status as VitalsStatus }));
      const out = await this.o.alerts.apply(trx, device, storedReadings, now);
      if (out) addEffects(caused, out);
      // A live event when the device's latest reading moved on (a backlog of older readings
      // changes nothing on screen but last seen).
      const newest = fresh.at(-1);
      if (newest && patch.vitals_recorded_at !== before) {
        effects.events.push({
          audience: [device.user_id],
          event: {
            type: 'reading',
            device: device.id,
            reading: toReading(newest, device.device_id),
            patch: withLevel(patch),
          },
        });
      }
    }

    for (const job of jobs) {
      if (results.has(job)) continue;
      const device = devices.get(job.deviceUuid)!;
      const have = stored.get(job.deviceUuid)!;
      const times = timesOf.get(job)!;
      results.set(
        job,
        times.map((at) => toReading(have.get(at)!, device.device_id)),
      );
      sliceStored(job, times);
    }
    // A reading's own event first, then what it caused (an alert, a notification).
    addEffects(effects, caused);
    const insertedByAccount = new Map<string, number>();
    for (const [id, rows] of insertedBy) {
      const owner = devices.get(id)!.user_id;
      insertedByAccount.set(owner, (insertedByAccount.get(owner) ?? 0) + rows.length);
    }
    return { results, effects, remember, inserted: inserted.length, insertedByAccount };
  }

  private riskStateOf(deviceUuid: string, json: string | null): RiskState {
    const known = this.riskStates.get(deviceUuid);
    if (known && json === known.json) return known.state;
    return parseRiskState(json);
  }

  private rememberRiskState(deviceUuid: string, json: string, state: RiskState): void {
    // Oldest first out (a Map keeps insertion order; a collar seen again moves to the end).
    this.riskStates.delete(deviceUuid);
    if (this.riskStates.size >= RISK_STATE_CACHE)
      this.riskStates.delete(this.riskStates.keys().next().value!);
    this.riskStates.set(deviceUuid, { json, state });
  }
}
