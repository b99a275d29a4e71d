import type { Kysely, Transaction } from 'kysely';
import {
  DEFAULT_PREFERENCES,
  assessAlone,
  asVitalsStatus,
  nextRegistrationStatus,
  parseReasons,
  parseRiskState,
  recordDay,
  riskStep,
  vitalsStatus,
  type RiskProfile,
  type RiskState,
  type ParsedReading,
  type Reading,
  type VitalsStatus,
  presentHorizon,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type {
  DeviceChanges,
  DevicesRepository,
  IngestedDeviceRow,
} from '../repositories/devices-repository.js';
import type {
  NewReadingRow,
  ReadingRow,
  ReadingsRepository,
} from '../repositories/readings-repository.js';
import type { Clock } from './clock.js';
import type { RollupWriter } from './rollups.js';
import type { Metrics } from './metrics.js';
import type { BusMessage, EventBus } from './event-bus.js';
import { ForbiddenError, UnauthorizedError } from './errors.js';
import type { IngestBudget } from './ingest-budget.js';
import { toReading, withLevel, type StoredVitals } from './reading-mapper.js';
import { healthConditionsOf } from './pet-service.js';

/** A posting device as ingest sees it inside the transaction. */
export interface IngestDevice {
  id: string;
  device_id: string;
  user_id: string;
  /** Its fields: as stored before this batch, then (for hooks) as this batch left them. */
  state: StoredVitals;
  /** Its fields as stored before this batch (what hooks judge the batch against). */
  previous: StoredVitals;
  thresholds: { warningF: number; criticalF: number };
  /** A battery below 20 % would open a low-battery alert (once per discharge). */
  batteryAlertArmed: boolean;
  /** Readings the collar kept before this batch (its storage counter). */
  readingsStored: number;
  /** The pet the collar is on, as the heat-risk model reads it. */
  profile: RiskProfile;
  /** The heat-risk model's memory of this collar: before the batch, then after it. */
  risk: RiskState;
  /** The JSON columns as stored before this batch (a column is written only when it changes). */
  stored: { risk_reasons: string | null; risk_state: string | null };
  /**
   * The model's collar-off judgement (docs/heat-risk.md): whether the collar was judged off
   * before this batch, the times of this batch's readings judged off or without any sign of
   * the dog (they raise no heat alert), and the time of the reading that began an off spell
   * worth telling the owner of.
   */
  collarOff: { before: boolean; readings: Set<number>; newsAt: number | null };
}

/** A reading stored by this batch, with the status the server gave it. */
export interface StoredReading {
  row: ReadingRow;
  status: VitalsStatus;
}

/** What a hook leaves for after the commit: live events, and work the commit allows. */
export interface HookOutcome {
  messages?: BusMessage[];
  afterCommit?: () => void;
}

/**
 * Runs inside the ingest transaction, once per device and batch, after its readings are
 * stored and before the commit: where alerts, notifications and their mail outbox rows hook
 * in, so that they commit (or not) together with the readings they come from. `stored` holds
 * the readings this batch inserted, oldest first.
 */
export type IngestHook = (
  trx: Transaction<Database>,
  device: IngestDevice,
  stored: StoredReading[],
  now: Date,
) => Promise<HookOutcome | void>;

/**
 * One upload as it waits for its commits: a list of more than SLICE readings is stored in
 * slices, each in a commit of its own, oldest first; it is answered once its last slice has
 * committed.
 */
interface Upload {
  deviceUuid: string;
  /** Its readings as the collar sent them (duplicates included). */
  readings: ParsedReading[];
  /** The upload's size, as its budget counts it. */
  bytes: number;
  /** The readings to store, slice by slice (one slice: the upload itself, as sent). */
  slices: ParsedReading[][];
  /** The next slice to commit. */
  next: number;
  /**
   * Sliced: for each reading as sent, its place among the readings stored slice by slice (a
   * repeated timestamp points at the first reading of that time); and the answers so far.
   */
  placeOf: number[] | null;
  answers: Reading[];
  /** Sliced: every collar timestamp of the upload, and the earliest time a reading without one may take next. */
  collarTimes: Set<number> | null;
  serverFloor: number;
  resolve: (stored: Reading[]) => void;
  reject: (err: unknown) => void;
}

/** What one commit stores of one upload: the whole upload, or one slice of it. */
interface Job {
  deviceUuid: string;
  readings: ParsedReading[];
  upload: Upload;
  /** The first slice charges the owner's account for the whole upload; later slices nothing. */
  charge: { readings: number; bytes: number } | null;
}

export interface IngestOptions {
  db: Kysely<Database>;
  devices: DevicesRepository;
  readings: ReadingsRepository;
  /** Each collar's minute and hour rollups, written with the readings they sum up. */
  rollups: RollupWriter;
  bus: EventBus;
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

/**
 * Durable group commit. Readings that arrive together are stored in one transaction; every
 * caller is answered only after that transaction has committed (SQLite synchronous=FULL,
 * PostgreSQL's fsync), so an acknowledged reading survives a crash. While one batch commits,
 * the next gathers: under load a commit carries many readings, and when idle a reading waits
 * at most `gatherMs` before its own.
 */
/** A reading later than this is the device's present; an older one is a backlog. */
function presentSince(state: StoredVitals): number {
  const horizon = presentHorizon(state.vitals_recorded_at, state.last_seen);
  return horizon ? Date.parse(horizon) : -Infinity;
}

export class IngestService {
  private pending: Upload[] = [];
  private pendingReadings = 0;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private committing: Promise<void> | null = null;
  private readonly hooks: IngestHook[] = [];
  private readonly gatherMs: number;
  private readonly maxBatch: number;
  /** Readings stored and commits made since start: counted on the hot path, logged a minute at a time. */
  storedCount = 0;
  batchCount = 0;
  private statsTimer: NodeJS.Timeout | null = null;
  /**
   * The risk state this server last wrote per collar, with its JSON: when the row still holds
   * that JSON, the state is taken as it is instead of parsed again (states are never changed
   * in place; riskStep answers a new one).
   */
  private readonly riskStates = new Map<string, { json: string; state: RiskState }>();

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
  submit(deviceUuid: string, readings: ParsedReading[], bytes = 0): Promise<Reading[]> {
    return new Promise((resolve, reject) => {
      // A collar over its budget is refused here, before it takes a place in a commit.
      try {
        this.o.budget?.chargeCollar(
          deviceUuid,
          readings.length,
          bytes,
          this.o.clock.now().getTime(),
        );
      } catch (err) {
        reject(err);
        return;
      }
      const upload = toUpload(deviceUuid, readings, bytes, resolve, reject);
      this.pending.push(upload);
      for (const slice of upload.slices) this.pendingReadings += slice.length;
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

  /**
   * The next commit in `ms`, or (`nextTurn`) on the event loop's next turn: the next slice of
   * a sliced upload goes as soon as the readings that arrived meanwhile have been taken in.
   */
  private flushSoon(ms: number, nextTurn = false): void {
    if (this.immediate) return;
    if (this.timer) {
      if (ms > 0 && !nextTurn) return;
      clearTimeout(this.timer);
      this.timer = null;
    }
    const run = () => {
      this.timer = null;
      this.immediate = null;
      let midway = false;
      this.committing = this.commitPending()
        .then((m) => {
          midway = m;
        })
        .finally(() => {
          this.committing = null;
          // What arrived during the commit starts the next batch, which gathers for gatherMs
          // more: collars answered by this commit are sending their next readings right now,
          // and one commit for all of them costs one disk flush instead of many. The rest of a
          // sliced upload goes on at the next turn of the event loop, with what has arrived.
          if (this.pending.length)
            this.flushSoon(this.pendingReadings >= this.maxBatch ? 0 : this.gatherMs, midway);
        });
    };
    if (nextTurn) this.immediate = setImmediate(run);
    else this.timer = setTimeout(run, ms);
  }

  /** Commits a batch of what is pending; answers whether a sliced upload is midway. */
  private async commitPending(): Promise<boolean> {
    // At most maxBatch readings per commit: the transaction and its IN lists stay bounded
    // however much is waiting. In arrival order, except that a commit holds at most one large
    // upload or one slice of a list: another large one waits for a later commit, and so does
    // every later upload of its collar (a collar's uploads are stored in the order they came,
    // a sliced one's slices one commit after another), while other collars' small uploads go
    // on. A reading a second then waits behind one slice in progress, never behind a whole
    // list, nor a queue of other collars' 1,000-reading lists (bench/README, "Abuse").
    const jobs: Job[] = [];
    const waiting: Upload[] = [];
    const held = new Set<string>();
    let count = 0;
    let large = false;
    for (const upload of this.pending) {
      const slice = upload.slices[upload.next]!;
      const n = slice.length;
      const isLarge = n > LARGE_UPLOAD || upload.slices.length > 1;
      if (
        jobs.length > 0 &&
        (held.has(upload.deviceUuid) || count + n > this.maxBatch || (isLarge && large))
      ) {
        held.add(upload.deviceUuid);
        waiting.push(upload);
        continue;
      }
      jobs.push({
        deviceUuid: upload.deviceUuid,
        readings: slice,
        upload,
        charge:
          upload.next === 0 ? { readings: upload.readings.length, bytes: upload.bytes } : null,
      });
      upload.next++;
      count += n;
      large ||= isLarge;
      // The rest of a sliced upload keeps its place, and its collar's later uploads wait for it.
      if (upload.next < upload.slices.length) {
        held.add(upload.deviceUuid);
        waiting.push(upload);
      }
    }
    this.pending = waiting;
    this.pendingReadings -= count;
    if (jobs.length === 0) return false;
    const now = this.o.clock.now();
    const started = performance.now();
    let outcome: BatchOutcome;
    try {
      outcome = await this.o.db.transaction().execute((trx) => this.store(trx, jobs, now));
    } catch (err) {
      for (const job of jobs) this.fail(job.upload, err);
      return this.pending.some((u) => u.next > 0);
    }
    this.o.metrics?.commit(count, performance.now() - started);
    this.batchCount++;
    this.storedCount += outcome.inserted;
    for (const [account, n] of outcome.insertedByAccount) this.o.budget?.addStored(account, n);
    for (const [job, result] of outcome.results) {
      if (result instanceof Error) this.fail(job.upload, result);
      else answer(job.upload, result);
    }
    try {
      if (outcome.messages.length) this.o.bus.publish(outcome.messages);
    } catch (err) {
      // The readings are stored and acknowledged; a live event lost is a screen a moment behind.
      this.onPublishError?.(err);
    }
    for (const fn of outcome.afterCommit) fn();
    return this.pending.some((u) => u.next > 0);
  }

  /**
   * An upload refused or not stored: its caller gets the error, and its slices not yet
   * committed are dropped (those committed stay stored: a retry stores the rest, once).
   */
  private fail(upload: Upload, err: unknown): void {
    if (upload.next < upload.slices.length) {
      const i = this.pending.indexOf(upload);
      if (i >= 0) {
        this.pending.splice(i, 1);
        for (let s = upload.next; s < upload.slices.length; s++)
          this.pendingReadings -= upload.slices[s]!.length;
      }
      upload.next = upload.slices.length;
    }
    upload.reject(err);
  }

  /** Told when live events of a stored batch could not be published. */
  onPublishError: ((err: unknown) => void) | null = null;

  private async store(trx: Transaction<Database>, jobs: Job[], now: Date): Promise<BatchOutcome> {
    const ids = [...new Set(jobs.map((j) => j.deviceUuid))].sort();
    // Locked (PostgreSQL) in id order: a release or another instance's batch for the same
    // collar waits for this commit, or this one sees its result, never a mix.
    const rowsById = new Map(
      (await this.o.devices.ingestStates(ids, trx, this.o.lockRows ?? false)).map((r) => [r.id, r]),
    );
    const devices = new Map<string, IngestDevice>();
    const results = new Map<Job, Reading[] | Error>();
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
      if (!r.user_id || !CAN_POST.has(r.registration_status)) {
        results.set(job, new ForbiddenError(NOT_REGISTERED));
        continue;
      }
      const refused =
        job.charge &&
        budget?.chargeAccount(r.user_id, r.id, job.charge.readings, job.charge.bytes, nowMs);
      if (refused) {
        results.set(job, refused);
        continue;
      }
      if (!devices.has(r.id)) {
        const risk = this.riskStateOf(r.id, r.risk_state);
        const {
          id: _id,
          device_id: _deviceId,
          user_id: _userId,
          temperature_threshold: w,
          critical_temperature_threshold: c,
          battery_alert_armed: armed,
          risk_band: band,
          risk_score: score,
          risk_reasons: reasons,
          risk_state: riskState,
          readings_stored: readingsStored,
          dog_name: dogName,
          dog_breed: breed,
          dog_age: age,
          dog_weight: weight,
          dog_sex: sex,
          dog_body_condition: bodyCondition,
          dog_health_conditions: conditions,
          ...vitals
        } = r;
        const state: StoredVitals = {
          ...vitals,
          risk_band: asVitalsStatus(band),
          risk_score: score === null ? null : Number(score),
          risk_reasons: parseReasons(reasons),
          collar_off: risk.offSince !== null,
        };
        devices.set(r.id, {
          id: r.id,
          device_id: r.device_id,
          user_id: r.user_id,
          state,
          previous: state,
          batteryAlertArmed: Boolean(armed),
          readingsStored: Number(readingsStored),
          profile: {
            name: dogName,
            breed,
            age,
            weightLbs: weight === null ? null : Number(weight),
            sex,
            bodyCondition,
            conditions: healthConditionsOf(conditions),
          },
          risk,
          stored: { risk_reasons: reasons, risk_state: riskState },
          collarOff: { before: risk.offSince !== null, readings: new Set(), newsAt: null },
          thresholds: {
            warningF: w ?? DEFAULT_PREFERENCES.temperature_threshold,
            criticalF: c ?? DEFAULT_PREFERENCES.critical_temperature_threshold,
          },
        });
        byDevice.set(r.id, new Map());
        serverTimed.set(r.id, new Set());
      }
      const times = byDevice.get(r.id)!;
      const own = serverTimed.get(r.id)!;
      const jobTimes: number[] = [];
      // A slice's readings without a timestamp follow its upload's earlier slices, and never
      // take a time one of its readings was sent with.
      const { collarTimes, serverFloor } = job.upload;
      for (const reading of job.readings) {
        let at = reading.timestamp;
        if (at === undefined) {
          at = Math.max(nowMs, serverFloor);
          while (times.has(at) || collarTimes?.has(at)) at++;
          own.add(at);
        }
        if (!times.has(at)) times.set(at, reading);
        jobTimes.push(at);
      }
      timesOf.set(job, jobTimes);
    }

    const stored = new Map<string, Map<number, ReadingRow>>();
    let inserted: ReadingRow[] = [];
    let pending = this.rowsFor(devices, byDevice, nowMs);
    // A server-timed reading that meets a stored one moves on a millisecond and is inserted
    // again; collar-timed repeats are answered with what is stored.
    for (let attempt = 0; pending.length && attempt < 5; attempt++) {
      const fresh = await this.o.readings.insertNew(pending, trx);
      inserted = inserted.concat(fresh);
      for (const row of fresh) {
        let m = stored.get(row.device_id);
        if (!m) stored.set(row.device_id, (m = new Map()));
        m.set(Number(row.recorded_at), row);
      }
      const retry: NewReadingRow[] = [];
      for (const row of pending) {
        if (stored.get(row.device_id)?.has(row.recorded_at)) continue;
        const own = serverTimed.get(row.device_id)!;
        if (!own.has(row.recorded_at)) continue;
        const times = byDevice.get(row.device_id)!;
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

    const messages: BusMessage[] = [];
    const hookMessages: BusMessage[] = [];
    const afterCommit: (() => void)[] = [];
    // Each collar's row as this batch leaves it, written for all of them before any hook runs.
    const insertedBy = new Map<string, ReadingRow[]>();
    for (const r of inserted) {
      const list = insertedBy.get(r.device_id);
      if (list) list.push(r);
      else insertedBy.set(r.device_id, [r]);
    }
    const written = [...devices.values()].map((device) => {
      const fresh = (insertedBy.get(device.id) ?? []).sort(
        (a, b) => Number(a.recorded_at) - Number(b.recorded_at),
      );
      return {
        device,
        fresh,
        before: device.state.vitals_recorded_at,
        ...this.deviceAfter(device, fresh, now),
      };
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
    afterCommit.push(
      await this.o.rollups.record(
        trx,
        insertedBy,
        new Map(
          written.map(({ device, patch }) => [
            device.id,
            { before: device.previous.last_seen, after: patch.last_seen! },
          ]),
        ),
      ),
    );
    for (const { device, fresh, before, patch } of written) {
      device.state = patch;
      const storedReadings = fresh.map((row) => ({ row, status: row.status as VitalsStatus }));
      for (const hook of this.hooks) {
        const out = await hook(trx, device, storedReadings, now);
        if (out?.messages) hookMessages.push(...out.messages);
        if (out?.afterCommit) afterCommit.push(out.afterCommit);
      }
      // A live event when the device's latest reading moved on (a backlog of older readings
      // changes nothing on screen but last seen).
      const newest = fresh.at(-1);
      if (newest && patch.vitals_recorded_at !== before) {
        messages.push({
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
      if (job.upload.collarTimes)
        for (let i = 0; i < times.length; i++)
          if (job.readings[i]!.timestamp === undefined)
            job.upload.serverFloor = Math.max(job.upload.serverFloor, times[i]! + 1);
    }
    // A reading's own event first, then what it caused (an alert, a notification).
    messages.push(...hookMessages);
    const insertedByAccount = new Map<string, number>();
    for (const [id, rows] of insertedBy) {
      const owner = devices.get(id)!.user_id;
      insertedByAccount.set(owner, (insertedByAccount.get(owner) ?? 0) + rows.length);
    }
    return { results, messages, afterCommit, inserted: inserted.length, insertedByAccount };
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

  /**
   * New rows with the server's status. Readings newer than the device's latest are judged in
   * time order from its current status (the 1 °F hysteresis needs the level it is at); older
   * ones (a backlog) are judged each on its own and never feed that chain.
   */
  private rowsFor(
    devices: Map<string, IngestDevice>,
    byDevice: Map<string, Map<number, ParsedReading>>,
    nowMs: number,
  ): NewReadingRow[] {
    const rows: NewReadingRow[] = [];
    for (const [deviceUuid, times] of byDevice) {
      const device = devices.get(deviceUuid)!;
      const latest = presentSince(device.state);
      let previous = (device.state.vitals_status as VitalsStatus | null) ?? null;
      for (const [at, r] of [...times.entries()].sort((a, b) => a[0] - b[0])) {
        const newer = at > latest;
        const status = vitalsStatus(r, device.thresholds, newer ? previous : null);
        if (newer) previous = status;
        // The heat-risk model follows the present in time order, as the status does; an older
        // reading is judged on its own but still counts towards its day's heat (acclimatisation).
        const input = { ...r, at };
        let risk;
        if (newer) {
          ({ state: device.risk, assessment: risk } = riskStep(device.risk, input, device.profile));
          if (risk.noSign) device.collarOff.readings.add(at);
          if (risk.collarOffNews) device.collarOff.newsAt = at;
        } else {
          device.risk = recordDay(device.risk, input);
          risk = assessAlone(input, device.profile);
        }
        rows.push({
          risk_band: risk.band,
          risk_score: risk.score,
          risk_reasons: JSON.stringify(risk.reasons),
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
    return rows;
  }

  /**
   * The device row after a batch: last_seen is the arrival time; the latest-vitals columns
   * follow the greatest timestamp, and a field absent from that reading keeps its value;
   * status active (back from offline, never out of maintenance); registration active.
   * Answers the new state, the columns it changes (what SQLite writes: an unchanged column,
   * an index among them, costs it work for nothing) and the whole row (what PostgreSQL
   * writes, for every collar of the batch in one statement).
   */
  private deviceAfter(
    device: IngestDevice,
    fresh: ReadingRow[],
    now: Date,
  ): { patch: StoredVitals; changes: DeviceChanges; row: IngestedDeviceRow } {
    const before = device.state;
    const seenAt = now.toISOString();
    const patch: StoredVitals = {
      ...before,
      last_seen: seenAt,
      status: before.status === 'maintenance' ? 'maintenance' : 'active',
      registration_status: nextRegistrationStatus(before.registration_status, 'data') ?? 'active',
    };
    const storedAt = presentSince(before);
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
      patch.risk_band = asVitalsStatus(newest.risk_band);
      patch.risk_score = newest.risk_score;
      patch.risk_reasons = parseReasons(newest.risk_reasons);
    }
    patch.collar_off = device.risk.offSince !== null;
    // Written only while the owner it was read with still holds it (the row is locked on
    // PostgreSQL; on SQLite one connection serialises every write).
    const riskState = JSON.stringify(device.risk);
    this.rememberRiskState(device.id, riskState, device.risk);
    // The reasons are stored as the newest reading has them (JSON), and only when it moved on.
    const reasons = newest ? newest.risk_reasons : device.stored.risk_reasons;
    const changes: Record<string, unknown> = { last_seen: seenAt, updated_at: seenAt };
    for (const k of PATCH_COLUMNS) if (patch[k] !== before[k]) changes[k] = patch[k];
    if (reasons !== device.stored.risk_reasons) changes.risk_reasons = reasons;
    if (riskState !== device.stored.risk_state) changes.risk_state = riskState;
    // The collar's count of readings kept: what this batch inserted (a repeat adds nothing).
    const readingsStored = device.readingsStored + fresh.length;
    if (fresh.length) changes.readings_stored = readingsStored;
    const row: IngestedDeviceRow = {
      id: device.id,
      user_id: device.user_id,
      last_seen: seenAt,
      updated_at: seenAt,
      status: patch.status,
      registration_status: patch.registration_status,
      battery_level: patch.battery_level,
      temperature_celsius: patch.temperature_celsius,
      humidity_percent: patch.humidity_percent,
      heart_rate: patch.heart_rate,
      activity_level: patch.activity_level,
      vitals_status: patch.vitals_status,
      vitals_recorded_at: patch.vitals_recorded_at,
      risk_band: patch.risk_band,
      risk_score: patch.risk_score,
      risk_reasons: reasons,
      risk_state: riskState,
      readings_stored: readingsStored,
    };
    return { patch, changes: changes as DeviceChanges, row };
  }
}

/** The device columns a batch may change, besides last_seen and the JSON columns. */
const PATCH_COLUMNS = [
  'status',
  'registration_status',
  'battery_level',
  'temperature_celsius',
  'humidity_percent',
  'heart_rate',
  'activity_level',
  'vitals_status',
  'vitals_recorded_at',
  'risk_band',
  'risk_score',
] as const satisfies readonly (keyof StoredVitals & keyof DeviceChanges)[];
// Every field of the patch is written: a field added to it and not to PATCH_COLUMNS (or written
// on its own, as last_seen and the reasons are) is a type error here, not a field lost.
const everyPatchFieldWritten: Record<
  Exclude<
    keyof StoredVitals,
    // collar_off is no column: it is read from the risk state (written below).
    (typeof PATCH_COLUMNS)[number] | 'last_seen' | 'risk_reasons' | 'collar_off'
  >,
  never
> = {};
void everyPatchFieldWritten;

/** An upload of more readings than this is a large one: at most one of them per commit. */
const LARGE_UPLOAD = 100;

/**
 * A list of more readings than this is stored in slices of at most this many, each in a
 * commit of its own: a commit holds the event loop for a few milliseconds, not the ~40 of a
 * whole 1,000-reading list, and other collars' readings are committed between its slices.
 */
export const SLICE = 250;

/**
 * An upload as it waits: as sent when it fits one slice; otherwise its distinct readings in
 * time order (those without a timestamp last, as sent: they take the time of their commit),
 * cut in slices. The status chain, the heat-risk model and the alerts then see the slices'
 * readings in the order one commit would have judged them; a timestamp sent twice is stored
 * once and answers the first reading sent with it, as in one commit.
 */
function toUpload(
  deviceUuid: string,
  readings: ParsedReading[],
  bytes: number,
  resolve: (stored: Reading[]) => void,
  reject: (err: unknown) => void,
): Upload {
  const upload: Upload = {
    deviceUuid,
    readings,
    bytes,
    slices: [readings],
    next: 0,
    placeOf: null,
    answers: [],
    collarTimes: null,
    serverFloor: -Infinity,
    resolve,
    reject,
  };
  if (readings.length <= SLICE) return upload;
  const order = readings.map((_, i) => i);
  const key = (i: number) => readings[i]!.timestamp ?? Infinity;
  order.sort((a, b) => key(a) - key(b) || a - b);
  const distinct: ParsedReading[] = [];
  const placeOf = new Array<number>(readings.length);
  const collarTimes = new Set<number>();
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const at = readings[i]!.timestamp;
    if (at !== undefined && collarTimes.has(at)) {
      // The same time as the reading before it in time order: the first sent with it.
      placeOf[i] = placeOf[order[k - 1]!]!;
      continue;
    }
    if (at !== undefined) collarTimes.add(at);
    placeOf[i] = distinct.length;
    distinct.push(readings[i]!);
  }
  upload.slices = [];
  for (let i = 0; i < distinct.length; i += SLICE) upload.slices.push(distinct.slice(i, i + SLICE));
  upload.placeOf = placeOf;
  upload.collarTimes = collarTimes;
  return upload;
}

/** A slice committed: the upload is answered, in the order sent, once its last one has. */
function answer(upload: Upload, stored: Reading[]): void {
  if (!upload.placeOf) return upload.resolve(stored);
  for (const r of stored) upload.answers.push(r);
  if (upload.next < upload.slices.length) return;
  const answers = upload.answers;
  upload.resolve(upload.placeOf.map((p) => answers[p]!));
}

/** At most this many parsed risk states are kept (about 4 KB each with their JSON). */
const RISK_STATE_CACHE = 10_000;

interface BatchOutcome {
  results: Map<Job, Reading[] | Error>;
  messages: BusMessage[];
  afterCommit: (() => void)[];
  inserted: number;
  /** Readings inserted per owner account (their quota counts). */
  insertedByAccount: Map<string, number>;
}
