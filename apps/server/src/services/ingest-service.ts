import type { Kysely, Transaction } from 'kysely';
import {
  DEFAULT_PREFERENCES,
  nextRegistrationStatus,
  vitalsStatus,
  type DeviceVitalsPatch,
  type ParsedReading,
  type Reading,
  type VitalsStatus,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { DevicesRepository } from '../repositories/devices-repository.js';
import type {
  NewReadingRow,
  ReadingRow,
  ReadingsRepository,
} from '../repositories/readings-repository.js';
import type { Clock } from './clock.js';
import type { EventBus } from './event-bus.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';
import { toReading } from './reading-mapper.js';

/** A posting device as ingest sees it inside the transaction. */
export interface IngestDevice {
  id: string;
  device_id: string;
  user_id: string;
  /** Its fields as stored before this batch. */
  state: DeviceVitalsPatch;
  thresholds: { warningF: number; criticalF: number };
}

/** A reading stored by this batch, with the status the server gave it. */
export interface StoredReading {
  row: ReadingRow;
  status: VitalsStatus;
}

/**
 * Runs inside the ingest transaction, once per device and batch, after its readings are
 * stored and before the commit: where alerts, notifications and their mail outbox rows hook
 * in, so that they commit (or not) together with the readings they come from.
 */
export type IngestHook = (
  trx: Transaction<Database>,
  device: IngestDevice,
  stored: StoredReading[],
  now: Date,
) => Promise<void>;

interface Job {
  deviceUuid: string;
  readings: ParsedReading[];
  resolve: (stored: Reading[]) => void;
  reject: (err: unknown) => void;
}

export interface IngestOptions {
  db: Kysely<Database>;
  devices: DevicesRepository;
  readings: ReadingsRepository;
  bus: EventBus;
  clock: Clock;
  /** How long to gather readings into one commit when none is in progress (ms). */
  gatherMs?: number;
  /** A batch is committed at once when it holds this many readings. */
  maxBatch?: number;
}

/** An owned collar posts; a released (unassigned) or unregistered one cannot. */
const CAN_POST = new Set(['assigned', 'active']);
const NOT_REGISTERED =
  'This collar is not registered to an owner, so it cannot post readings. Register it to a pet first.';

/**
 * Durable group commit. Readings that arrive together are stored in one transaction; every
 * caller is answered only after that transaction has committed (SQLite synchronous=FULL,
 * PostgreSQL's fsync), so an acknowledged reading survives a crash. While one batch commits,
 * the next gathers: under load a commit carries many readings, and when idle a reading waits
 * at most `gatherMs` before its own.
 */
export class IngestService {
  private pending: Job[] = [];
  private pendingReadings = 0;
  private timer: NodeJS.Timeout | null = null;
  private committing: Promise<void> | null = null;
  private readonly hooks: IngestHook[] = [];
  private readonly gatherMs: number;
  private readonly maxBatch: number;
  /** Readings stored and commits made since start: counted on the hot path, logged a minute at a time. */
  storedCount = 0;
  batchCount = 0;
  private statsTimer: NodeJS.Timeout | null = null;

  constructor(private readonly o: IngestOptions) {
    this.gatherMs = o.gatherMs ?? 2;
    this.maxBatch = o.maxBatch ?? 2000;
  }

  /** Logs one line a minute with what was stored, instead of a line per reading. */
  startStats(log: { info: (o: object, msg: string) => void }): void {
    let readings = this.storedCount;
    let batches = this.batchCount;
    this.statsTimer ??= setInterval(() => {
      const r = this.storedCount - readings;
      const b = this.batchCount - batches;
      readings = this.storedCount;
      batches = this.batchCount;
      if (r > 0)
        log.info(
          { event: 'ingest.stats', readings: r, commits: b },
          'readings stored in the last minute',
        );
    }, 60_000);
    this.statsTimer.unref();
  }

  stopStats(): void {
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.statsTimer = null;
  }

  /** Adds a step to every ingest transaction (alerts, later). */
  addHook(hook: IngestHook): void {
    this.hooks.push(hook);
  }

  /**
   * Stores the readings of one device; resolves with what was stored, in the order given (a
   * reading already stored answers the stored one), once it is on disk.
   */
  submit(deviceUuid: string, readings: ParsedReading[]): Promise<Reading[]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ deviceUuid, readings, resolve, reject });
      this.pendingReadings += readings.length;
      if (this.committing) return; // the running commit schedules the next one
      if (this.pendingReadings >= this.maxBatch) this.flushSoon(0);
      else this.flushSoon(this.gatherMs);
    });
  }

  /** Commits what is pending and waits for every commit in progress (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.committing || this.pending.length) {
      if (!this.committing) this.flushSoon(0);
      await this.committing;
      await new Promise((r) => setImmediate(r));
    }
  }

  private flushSoon(ms: number): void {
    if (this.timer) {
      if (ms > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.committing = this.commitPending().finally(() => {
        this.committing = null;
        // What arrived during the commit starts the next batch, which gathers for gatherMs
        // more: collars answered by this commit are sending their next readings right now,
        // and one commit for all of them costs one disk flush instead of many.
        if (this.pending.length)
          this.flushSoon(this.pendingReadings >= this.maxBatch ? 0 : this.gatherMs);
      });
    }, ms);
  }

  private async commitPending(): Promise<void> {
    const jobs = this.pending;
    this.pending = [];
    this.pendingReadings = 0;
    if (jobs.length === 0) return;
    const now = this.o.clock.now();
    let outcome: BatchOutcome;
    try {
      outcome = await this.o.db.transaction().execute((trx) => this.store(trx, jobs, now));
    } catch (err) {
      for (const job of jobs) job.reject(err);
      return;
    }
    this.batchCount++;
    this.storedCount += outcome.inserted;
    for (const [job, result] of outcome.results) {
      if (result instanceof Error) job.reject(result);
      else job.resolve(result);
    }
    if (outcome.messages.length) this.o.bus.publish(outcome.messages);
  }

  private async store(trx: Transaction<Database>, jobs: Job[], now: Date): Promise<BatchOutcome> {
    const ids = [...new Set(jobs.map((j) => j.deviceUuid))];
    const rowsById = new Map((await this.o.devices.ingestStates(ids, trx)).map((r) => [r.id, r]));
    const devices = new Map<string, IngestDevice>();
    const results = new Map<Job, Reading[] | Error>();
    // Per device: every distinct reading time of this batch.
    const byDevice = new Map<string, Map<number, ParsedReading>>();
    for (const job of jobs) {
      const r = rowsById.get(job.deviceUuid);
      if (!r) {
        // Removed since its key was checked.
        results.set(job, new UnauthorizedError('A valid device key is required'));
        continue;
      }
      if (!r.user_id || !CAN_POST.has(r.registration_status)) {
        results.set(job, new ForbiddenError(NOT_REGISTERED));
        continue;
      }
      if (!devices.has(r.id)) {
        const {
          id: _id,
          device_id: _deviceId,
          user_id: _userId,
          temperature_threshold: w,
          critical_temperature_threshold: c,
          ...state
        } = r;
        devices.set(r.id, {
          id: r.id,
          device_id: r.device_id,
          user_id: r.user_id,
          state,
          thresholds: {
            warningF: w ?? DEFAULT_PREFERENCES.temperature_threshold,
            criticalF: c ?? DEFAULT_PREFERENCES.critical_temperature_threshold,
          },
        });
      }
      let times = byDevice.get(r.id);
      if (!times) byDevice.set(r.id, (times = new Map()));
      for (const reading of job.readings) {
        const at = reading.timestamp ?? now.getTime();
        if (!times.has(at)) times.set(at, reading);
      }
    }

    const nowMs = now.getTime();
    const rows: NewReadingRow[] = [];
    for (const [deviceUuid, times] of byDevice) {
      const device = devices.get(deviceUuid)!;
      const ordered = [...times.entries()].sort((a, b) => a[0] - b[0]);
      // Backlogs are judged in time order from the device's current status (DESIGN §3).
      let previous = (device.state.vitals_status as VitalsStatus | null) ?? null;
      for (const [at, r] of ordered) {
        const status = vitalsStatus(r, device.thresholds, previous);
        previous = status;
        rows.push({
          device_id: deviceUuid,
          recorded_at: at,
          received_at: nowMs,
          temperature: r.temperature,
          humidity: r.humidity,
          heart_rate: r.heart_rate ?? null,
          activity_level: r.activity_level ?? null,
          battery: r.battery ?? null,
          status,
          reported_status: r.status ?? null,
          lat: r.location?.lat ?? null,
          lon: r.location?.lon ?? null,
        });
      }
    }

    const inserted = rows.length ? await this.o.readings.insertNew(rows, trx) : [];
    const stored = new Map<string, Map<number, ReadingRow>>();
    for (const row of inserted) {
      let m = stored.get(row.device_id);
      if (!m) stored.set(row.device_id, (m = new Map()));
      m.set(Number(row.recorded_at), row);
    }
    // Times already stored before this batch: answered with the stored reading.
    for (const [deviceUuid, times] of byDevice) {
      const have = stored.get(deviceUuid) ?? new Map<number, ReadingRow>();
      stored.set(deviceUuid, have);
      const missing = [...times.keys()].filter((t) => !have.has(t));
      for (const row of await this.o.readings.findAt(deviceUuid, missing, trx))
        have.set(Number(row.recorded_at), row);
    }

    const messages: BatchOutcome['messages'] = [];
    for (const [deviceUuid] of byDevice) {
      const device = devices.get(deviceUuid)!;
      const fresh = inserted
        .filter((r) => r.device_id === deviceUuid)
        .sort((a, b) => Number(a.recorded_at) - Number(b.recorded_at));
      const patch = await this.updateDevice(trx, device, fresh, now);
      device.state = patch;
      const storedReadings = fresh.map((row) => ({ row, status: row.status as VitalsStatus }));
      for (const hook of this.hooks) await hook(trx, device, storedReadings, now);
      const newest = fresh.at(-1);
      if (newest) {
        messages.push({
          audience: [device.user_id],
          event: {
            type: 'reading',
            device: device.id,
            reading: toReading(newest, device.device_id),
            patch,
          },
        });
      }
    }

    for (const job of jobs) {
      if (results.has(job)) continue;
      const device = devices.get(job.deviceUuid)!;
      const have = stored.get(job.deviceUuid)!;
      results.set(
        job,
        job.readings.map((r) => toReading(have.get(r.timestamp ?? nowMs)!, device.device_id)),
      );
    }
    return { results, messages, inserted: inserted.length };
  }

  /**
   * The device row after a batch: last_seen is the arrival time; the latest-vitals columns
   * follow the greatest timestamp, and a field absent from that reading keeps its value;
   * status active (back from offline, never out of maintenance); registration active.
   */
  private async updateDevice(
    trx: Transaction<Database>,
    device: IngestDevice,
    fresh: ReadingRow[],
    now: Date,
  ): Promise<DeviceVitalsPatch> {
    const before = device.state;
    const patch: DeviceVitalsPatch = {
      ...before,
      last_seen: now.toISOString(),
      status: before.status === 'maintenance' ? 'maintenance' : 'active',
      registration_status: nextRegistrationStatus(before.registration_status, 'data') ?? 'active',
    };
    const storedAt = before.vitals_recorded_at ? Date.parse(before.vitals_recorded_at) : -Infinity;
    const newer = fresh.filter((r) => Number(r.recorded_at) > storedAt);
    const newest = newer.at(-1);
    if (newest) {
      const lastWith = (k: 'heart_rate' | 'activity_level' | 'battery') =>
        newer.findLast((r) => r[k] !== null)?.[k];
      patch.temperature_celsius = newest.temperature;
      patch.humidity_percent = newest.humidity;
      patch.vitals_status = newest.status;
      patch.vitals_recorded_at = new Date(Number(newest.recorded_at)).toISOString();
      patch.heart_rate = lastWith('heart_rate') ?? before.heart_rate;
      patch.activity_level = lastWith('activity_level') ?? before.activity_level;
      patch.battery_level = lastWith('battery') ?? before.battery_level;
    }
    await this.o.devices.update(
      device.id,
      { ...patch, updated_at: patch.last_seen! },
      undefined,
      trx,
    );
    return patch;
  }
}

interface BatchOutcome {
  results: Map<Job, Reading[] | Error>;
  messages: Parameters<EventBus['publish']>[0];
  inserted: number;
}
