import {
  sql,
  type InferResult,
  type RawBuilder,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  type Transaction,
  type Updateable,
} from 'kysely';
import {
  asVitalsStatus,
  dogLevel,
  parseReasons,
  riskStateCollarOff,
  statesAllowing,
  type Device,
  type RegistrationEvent,
} from '@pawguard/shared';
import type { Database, DevicesTable } from '../db/schema.js';
import { readPage, readPageCompiled, type PageRequest } from './paging.js';
import { CompiledQueries, inListChunks } from '../db/compiled-queries.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type DeviceRow = Selectable<DevicesTable>;
/** A new device: what the database fills in (the low-battery arm) may be left out. */
export type NewDeviceRow = Omit<
  DeviceRow,
  'battery_alert_armed' | 'auto_assigned' | 'readings_stored' | RiskColumn
> &
  Partial<Pick<DeviceRow, RiskColumn>>;
/** The heat-risk columns: empty until the collar's first reading. */
type RiskColumn = 'risk_band' | 'risk_score' | 'risk_reasons' | 'risk_state';
/** A device with the names the screens show beside it. */
export type DeviceWithNames = DeviceRow & { dog_name: string | null; owner_name: string | null };
export type DeviceChanges = Updateable<DevicesTable>;
/** PostgreSQL array types, for lists sent as parameters. */
const TEXT = sql`text[]`;
const INTEGER = sql`integer[]`;
const DOUBLE = sql`double precision[]`;
const REAL = sql`real[]`;
/**
 * What an ingest batch writes back on each of its collars' rows (PostgreSQL, in one
 * statement): every column it may change, keyed by the row's id and owner, with the
 * PostgreSQL array type each column's list is sent as.
 */
const INGESTED_COLUMNS = {
  id: TEXT,
  user_id: TEXT,
  last_seen: TEXT,
  updated_at: TEXT,
  status: TEXT,
  registration_status: TEXT,
  battery_level: INTEGER,
  temperature_celsius: DOUBLE,
  humidity_percent: DOUBLE,
  heart_rate: INTEGER,
  activity_level: INTEGER,
  vitals_status: TEXT,
  vitals_recorded_at: TEXT,
  risk_band: TEXT,
  risk_score: REAL,
  risk_reasons: TEXT,
  risk_state: TEXT,
  readings_stored: sql`bigint[]`,
} as const satisfies Partial<Record<keyof DeviceRow, RawBuilder<unknown>>>;
type IngestedColumn = keyof typeof INGESTED_COLUMNS;
export type IngestedDeviceRow = Pick<DeviceRow, IngestedColumn>;
/** A device as an ingest batch reads it, with its pet and its owner's thresholds. */
export type IngestStateRow = InferResult<
  ReturnType<DevicesRepository['ingestStatesQuery']>
>[number];

/** Where a write runs (a transaction, or the database) and whose device it must still be. */
export interface WriteOptions {
  /** Only while this user still holds the device (null: while nobody does). */
  ownerId?: string | null | undefined;
  /** Only while the device's key is still this one (a key rotation read it). */
  keyHash?: string | undefined;
  ex?: Executor | undefined;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** A stored device as the API answers it: names beside it, numbers as numbers, no key hash. */
export function toDevice(row: DeviceWithNames): Device {
  return {
    id: row.id,
    device_id: row.device_id,
    device_address: row.device_address,
    device_name: row.device_name,
    device_type: row.device_type,
    status: row.status,
    registration_status: row.registration_status,
    user_id: row.user_id,
    dog_id: row.dog_id,
    dog_name: row.dog_name,
    owner_name: row.owner_name,
    firmware_version: row.firmware_version,
    battery_level: num(row.battery_level),
    last_seen: row.last_seen,
    created_at: row.created_at,
    updated_at: row.updated_at,
    temperature_celsius: num(row.temperature_celsius),
    humidity_percent: num(row.humidity_percent),
    heart_rate: num(row.heart_rate),
    activity_level: num(row.activity_level),
    // The column keeps the thresholds' verdict; the answer's vitals_status is the dog's one
    // level, the higher of it and the heat-risk model's band (decision 0031).
    vitals_status: dogLevel(asVitalsStatus(row.vitals_status), asVitalsStatus(row.risk_band)),
    threshold_status: asVitalsStatus(row.vitals_status),
    vitals_recorded_at: row.vitals_recorded_at,
    risk_band: asVitalsStatus(row.risk_band),
    risk_score: num(row.risk_score),
    risk_reasons: parseReasons(row.risk_reasons),
    collar_off: riskStateCollarOff(row.risk_state),
  };
}

const asDevices = ({ rows, total }: { rows: DeviceWithNames[]; total: number }) => ({
  devices: rows.map(toDevice),
  total,
});

export class DevicesRepository {
  private readonly compiled = new CompiledQueries();

  constructor(private readonly db: Kysely<Database>) {}

  private withNames(ex: Executor) {
    return this.names(ex.selectFrom('devices'));
  }

  private names(q: SelectQueryBuilder<Database, 'devices', object>) {
    return q
      .leftJoin('dogs', 'dogs.id', 'devices.dog_id')
      .leftJoin('users', 'users.id', 'devices.user_id')
      .selectAll('devices')
      .select(['dogs.name as dog_name', 'users.name as owner_name']);
  }

  /** An owner's devices, oldest first. */
  /**
   * A person's devices and those on pets shared with them now (`now`: a membership's `until`
   * is checked against it), oldest first.
   */
  async pageByUser(userId: string, page: PageRequest, now: string) {
    return asDevices(
      await readPageCompiled(
        this.compiled,
        this.db,
        'devices.pageByUser',
        // Each value bound once, in order (a compiled query's rule): the user twice.
        ([owner, member, at]) =>
          this.db.selectFrom('devices').where((eb) =>
            eb.or([
              eb('devices.user_id', '=', owner as string),
              // `IN`, not EXISTS: SQLite then reads both branches by an index each.
              eb(
                'devices.dog_id',
                'in',
                eb
                  .selectFrom('pack_members as m')
                  .select('m.dog_id')
                  .where('m.user_id', '=', member as string)
                  .where((w) => w.or([w('m.until', 'is', null), w('m.until', '>', at as string)])),
              ),
            ]),
          ),
        (q) => this.names(q).orderBy('devices.created_at', 'asc').orderBy('devices.id', 'asc'),
        [userId, userId, now],
        page,
      ),
    );
  }

  /** Every device, newest first (the admin's fleet list). */
  async pageAll(page: PageRequest) {
    return asDevices(
      await readPage(
        this.db.selectFrom('devices'),
        (q) => this.names(q).orderBy('devices.created_at', 'desc').orderBy('devices.id', 'desc'),
        page,
      ),
    );
  }

  /** Devices nobody holds, newest first. */
  async pageUnassigned(page: PageRequest) {
    return asDevices(
      await readPage(
        this.db.selectFrom('devices').where('devices.registration_status', '=', 'unassigned'),
        (q) => this.names(q).orderBy('devices.created_at', 'desc').orderBy('devices.id', 'desc'),
        page,
      ),
    );
  }

  findById(id: string, ex: Executor = this.db): Promise<DeviceWithNames | undefined> {
    return this.withNames(ex).where('devices.id', '=', id).executeTakeFirst();
  }

  findByDeviceId(deviceId: string, ex: Executor = this.db): Promise<DeviceWithNames | undefined> {
    return this.withNames(ex).where('devices.device_id', '=', deviceId).executeTakeFirst();
  }

  findByMac(mac: string, ex: Executor = this.db): Promise<DeviceWithNames | undefined> {
    return this.withNames(ex).where('devices.device_address', '=', mac).executeTakeFirst();
  }

  findByKeyHash(hash: string) {
    return this.db
      .selectFrom('devices')
      .select(['id', 'device_id'])
      .where('device_key_hash', '=', hash)
      .executeTakeFirst();
  }

  /**
   * Devices an owner holds, without the names (for releasing them), in id order: released one
   * by one, their rows are locked in the order ingest and retention lock collars.
   */
  listOwnedRows(userId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('devices')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  async deviceIdExists(deviceId: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('devices')
      .select('id')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The oldest pre-populated collars a customer may claim (none an admin put in maintenance). */
  freeCollarIds(limit: number, ex: Executor = this.db) {
    return ex
      .selectFrom('devices')
      .select('id')
      .where('registration_status', 'in', statesAllowing('claim'))
      .where('device_type', '=', 'collar')
      .where('status', '!=', 'maintenance')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }

  /** How many collars auto-assign reserved for this person are still waiting for data. */
  async countAutoAssignedWaiting(userId: string, ex: Executor = this.db): Promise<number> {
    const r = await ex
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('auto_assigned', '=', 1)
      .where('registration_status', '=', 'assigned')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** A collar on this dog that has an owner but has never sent data, if there is one. */
  findWaitingOnDog(dogId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('devices')
      .select(['id', 'device_id'])
      .where('dog_id', '=', dogId)
      .where('registration_status', '=', 'assigned')
      .executeTakeFirst();
  }

  async insert(row: NewDeviceRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('devices').values(row).execute();
  }

  /**
   * Changes a device; with `ownerId`, only while that user still holds it. Returns whether a
   * row changed.
   */
  async update(
    id: string,
    changes: DeviceChanges,
    { ownerId, keyHash, ex = this.db }: WriteOptions = {},
  ): Promise<boolean> {
    let q = ex.updateTable('devices').set(changes).where('id', '=', id);
    if (keyHash !== undefined) q = q.where('device_key_hash', '=', keyHash);
    // null: only while nobody holds it (a claim in between wins).
    if (ownerId === null) q = q.where('user_id', 'is', null);
    else if (ownerId !== undefined) q = q.where('user_id', '=', ownerId);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * PostgreSQL: the collars of an ingest batch written in one statement, each only while the
   * owner it was read with still holds it. One statement a collar cost a round trip each
   * (about 0.3 ms here), most of a batch's time; the batch holds these rows locked, so every
   * column is written as the batch leaves it.
   */
  async updateIngested(rows: IngestedDeviceRow[], ex: Executor): Promise<void> {
    if (rows.length === 0) return;
    // One list per column, each cast to the column's type; unnest pairs them up by position.
    const columns = Object.keys(INGESTED_COLUMNS) as IngestedColumn[];
    const lists = columns.map((c) => sql`${rows.map((r) => r[c])}::${INGESTED_COLUMNS[c]}`);
    const set = columns
      .filter((c) => c !== 'id' && c !== 'user_id')
      .map((c) => sql`${sql.ref(c)} = ${sql.ref(`v.${c}`)}`);
    await sql`
      UPDATE devices AS d SET ${sql.join(set)}
      FROM unnest(${sql.join(lists)}) AS v(${sql.join(columns.map((c) => sql.ref(c)))})
      WHERE d.id = v.id AND d.user_id = v.user_id
    `.execute(ex);
  }

  /**
   * The ingest path's write of a device: only the columns given, and only while `ownerId`
   * still holds it. Compiled once per set of columns (see CompiledQueries).
   */
  async updateHeld(
    id: string,
    ownerId: string,
    changes: DeviceChanges,
    ex: Executor,
  ): Promise<boolean> {
    const columns = (Object.keys(changes) as (keyof DeviceChanges)[]).filter(
      (c) => changes[c] !== undefined,
    );
    const n = columns.length;
    const r = await this.compiled.run(
      ex,
      `updateHeld ${columns.join(',')}`,
      (v) =>
        ex
          .updateTable('devices')
          .set(Object.fromEntries(columns.map((c, i) => [c, v[i]])) as DeviceChanges)
          .where('id', '=', v[n] as string)
          .where('user_id', '=', v[n + 1] as string),
      [...columns.map((c) => changes[c]), id, ownerId],
    );
    return Number(r.numAffectedRows ?? 0) > 0;
  }

  /**
   * Applies `event` (a claim, or an admin's assignment) only while the device is in a state
   * the shared state machine allows it from. The condition is checked by the UPDATE itself,
   * so of two concurrent claims exactly one changes the row.
   */
  async claim(
    key: { id: string } | { deviceId: string },
    event: Extract<RegistrationEvent, 'claim' | 'admin-assign'>,
    changes: DeviceChanges,
    { ex = this.db, onlyType }: { ex?: Executor; onlyType?: DeviceRow['device_type'] } = {},
  ): Promise<boolean> {
    let q = ex
      .updateTable('devices')
      .set(changes)
      .where('registration_status', 'in', statesAllowing(event));
    if (onlyType) q = q.where('device_type', '=', onlyType);
    const r = await (
      'id' in key ? q.where('id', '=', key.id) : q.where('device_id', '=', key.deviceId)
    ).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** A deleted dog's collars stay with the owner, on no dog. */
  async clearDog(dogId: string, now: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable('devices')
      .set({ dog_id: null, updated_at: now })
      .where('dog_id', '=', dogId)
      .execute();
  }

  async delete(id: string, { ownerId, ex = this.db }: WriteOptions = {}): Promise<boolean> {
    let q = ex.deleteFrom('devices').where('id', '=', id);
    if (ownerId === null) q = q.where('user_id', 'is', null);
    else if (ownerId !== undefined) q = q.where('user_id', '=', ownerId);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Takes the device row's lock in `trx` (PostgreSQL; SQLite runs one writer at a time), so a
   * change decided from its state cannot interleave with an ingest batch of the same device.
   */
  async lockRow(id: string, trx: Transaction<Database>, lock: boolean): Promise<void> {
    const q = trx.selectFrom('devices').select('id').where('id', '=', id);
    await (lock ? q.forUpdate() : q).execute();
  }

  /**
   * What ingest needs of each posting device, in one query per batch: its state, its latest
   * vitals and its owner's thresholds (null when the owner kept the defaults).
   */
  async ingestStates(ids: string[], ex: Executor, lock: boolean) {
    // In id order, a chunk of up to 256 at a time (padded: a few shapes, each compiled once):
    // chunks of a sorted list keep the rows, and PostgreSQL's row locks, in id order.
    const rows: IngestStateRow[] = [];
    for (const chunk of inListChunks(ids)) {
      const r = await this.compiled.run(
        ex,
        `ingestStates ${chunk.length} ${lock}`,
        (v) => this.ingestStatesQuery(v as string[], ex, lock),
        chunk,
      );
      rows.push(...r.rows);
    }
    return rows;
  }

  /** The readings each account keeps (the sum of its devices' counters); an account without any: absent. */
  async storedByOwner(userIds: string[], ex: Executor = this.db): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await ex
      .selectFrom('devices')
      .select((eb) => ['user_id', eb.fn.sum<number>('readings_stored').as('n')])
      .where('user_id', 'in', userIds)
      .groupBy('user_id')
      .execute();
    return new Map(rows.map((r) => [r.user_id!, Number(r.n)]));
  }

  private ingestStatesQuery(ids: string[], ex: Executor, lock: boolean) {
    const q = ex
      .selectFrom('devices')
      .leftJoin('notification_preferences as p', 'p.user_id', 'devices.user_id')
      .leftJoin('dogs', 'dogs.id', 'devices.dog_id')
      .select([
        'devices.id',
        'devices.device_id',
        'devices.user_id',
        'devices.status',
        'devices.registration_status',
        'devices.battery_level',
        'devices.last_seen',
        'devices.temperature_celsius',
        'devices.humidity_percent',
        'devices.heart_rate',
        'devices.activity_level',
        'devices.vitals_status',
        'devices.vitals_recorded_at',
        'devices.battery_alert_armed',
        'devices.risk_band',
        'devices.risk_score',
        'devices.risk_reasons',
        'devices.risk_state',
        'devices.readings_stored',
        'dogs.name as dog_name',
        'dogs.breed as dog_breed',
        'dogs.age as dog_age',
        'dogs.weight as dog_weight',
        'dogs.sex as dog_sex',
        'dogs.body_condition as dog_body_condition',
        'dogs.health_conditions as dog_health_conditions',
        'p.temperature_threshold',
        'p.critical_temperature_threshold',
      ])
      .where('devices.id', 'in', ids)
      .orderBy('devices.id');
    // FOR UPDATE OF devices: the device rows only (the preferences row may be absent).
    return lock ? q.forUpdate(['devices']) : q;
  }
}
