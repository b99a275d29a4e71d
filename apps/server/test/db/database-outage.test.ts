import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isDatabaseUnavailable,
  isStorageFailure,
  isTransactionConflict,
  loggableDbError,
} from '../../src/db/index.js';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
} from '../../src/plugins/error-handler.js';
import { expectError } from '../helpers/api.js';
import { bearer, createTestApp, seedUser, usePostgres, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { until } from '../helpers/sse.js';

/**
 * A TCP path to PostgreSQL that a test can break: 'open' forwards; 'refusing' drops each
 * connection at once (PostgreSQL down); 'silent' takes connections and never answers (a
 * broken network path), and cuts the connections already made; 'stalled' is silent too but
 * keeps the connections already made, carrying nothing either way (a path that went silent
 * under open connections).
 */
class DatabaseLink {
  private mode: 'open' | 'refusing' | 'silent' | 'stalled' = 'open';
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => {
    this.track(socket);
    if (this.mode === 'refusing') return socket.destroy();
    if (this.mode !== 'open') return;
    const upstream = this.track(net.connect(this.target.port, this.target.host));
    for (const [a, b] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      a.on('data', (chunk) => this.mode === 'open' && b.write(chunk));
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });

  constructor(private readonly target: { host: string; port: number }) {}

  private track(socket: net.Socket): net.Socket {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    return socket;
  }

  /** Listens on a free port; answers the database URL that goes through it. */
  async open(url: string): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String((this.server.address() as net.AddressInfo).port);
    return through.toString();
  }

  set(mode: DatabaseLink['mode']): void {
    this.mode = mode;
    if (mode === 'refusing' || mode === 'silent') for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('which errors mean the database is briefly unavailable (503, not 500)', () => {
  it('counts unreachable, restarting, full or locked databases, and nothing else', () => {
    const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
    const unavailable = [
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
      withCode('database or disk is full', 'SQLITE_FULL'),
      withCode('disk I/O error', 'SQLITE_IOERR_WRITE'),
      withCode('database is locked', 'SQLITE_BUSY'),
      // Our session limits: a statement that ran too long, a row locked for too long.
      withCode('canceling statement due to statement timeout', '57014'),
      withCode('canceling statement due to lock timeout', '55P03'),
      // A database that takes no writes for now: a standby after a failover, a read-only file.
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
      withCode('attempt to write a readonly database', 'SQLITE_READONLY'),
      // The server's own disk failing: out of space, an I/O error.
      withCode('could not extend file: No space left on device', '53100'),
      withCode('could not write block: Input/output error', '58030'),
    ];
    const other = [
      new Error('something else'),
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('syntax error', '42601'),
      withCode('UNIQUE constraint failed', 'SQLITE_CONSTRAINT_UNIQUE'),
      // Our own mistakes, not an outage: a protocol violation (too many parameters), a
      // configured limit, a table locked by our own connection.
      withCode('bind message supplies 0 parameters', '08P01'),
      withCode('configuration limit exceeded', '53400'),
      withCode('database table is locked', 'SQLITE_LOCKED'),
      // The words alone count only for an error without a code of its own.
      withCode('Connection terminated by a rule', '42000'),
      null,
      'ECONNREFUSED',
    ];
    // A transaction ended to break a deadlock, or not serializable: a conflict, not an outage.
    const conflicts = [
      withCode('deadlock detected', '40P01'),
      withCode('could not serialize access due to concurrent update', '40001'),
    ];
    for (const err of unavailable) expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    for (const err of [...other, ...conflicts])
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    for (const err of conflicts) expect(isTransactionConflict(err), String(err)).toBe(true);
    for (const err of [...unavailable, ...other])
      expect(isTransactionConflict(err), String(err)).toBe(false);
    // Of those, the ones that say the storage fails writes (health reports them).
    const storage = [
      '53100',
      '58030',
      '25006',
      'SQLITE_FULL',
      'SQLITE_IOERR_WRITE',
      'SQLITE_READONLY',
    ];
    for (const err of [...unavailable, ...other])
      expect(isStorageFailure(err), String(err)).toBe(
        storage.includes((err as { code?: string } | null)?.code ?? ''),
      );
  });

  it('are logged by kind, code and message, never with the connection node-postgres hangs on them', () => {
    const err = Object.assign(new Error('Connection terminated unexpectedly'), {
      client: { user: 'pawguard', host: 'db.internal', secretKey: 12345, ssl: { key: 'PRIVATE' } },
    });
    expect(loggableDbError(err)).toEqual({
      type: 'Error',
      message: 'Connection terminated unexpectedly',
    });
    expect(loggableDbError(Object.assign(new Error('full'), { code: 'SQLITE_FULL' }))).toEqual({
      type: 'Error',
      code: 'SQLITE_FULL',
      message: 'full',
    });
  });
});

describe('a transaction PostgreSQL ended to break a deadlock', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it('answers 503 with Retry-After: 1, logs a conflict (not an outage), and serves again', async () => {
    t = await createTestApp();
    const owner = await seedUser(t);
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const list = vi.spyOn(t.app.container.dogs, 'list').mockRejectedValueOnce(deadlock);
    const res = await t.app.inject({ url: '/api/dogs', headers: bearer(owner.token) });
    expectError(res, 503, /briefly unavailable/);
    expect(res.headers['retry-after']).toBe('1');
    const lines = t.logs().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.event === 'db.conflict')).toEqual([
      expect.objectContaining({
        route: '/api/dogs',
        error: expect.objectContaining({ code: '40P01' }),
      }),
    ]);
    expect(lines.filter((l) => l.event === 'db.unavailable')).toHaveLength(0);
    // Tried again, it passes; and health never counted it as a failing disk.
    expect(
      (await t.app.inject({ url: '/api/dogs', headers: bearer(owner.token) })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    list.mockRestore();
  });
});

describe.skipIf(!usePostgres)(
  'when PostgreSQL goes away and comes back (on PostgreSQL only)',
  () => {
    let t: TestApp | undefined;
    let link: DatabaseLink | undefined;
    afterEach(async () => {
      link?.set('open');
      await t?.close();
      await link?.close();
      t = link = undefined;
    });

    /** An owner with a collar, and how to post a reading as that collar and read the owner's pets. */
    async function ownerWithCollar(app: TestApp) {
      const admin = await seedUser(app, { role: 'admin' });
      const owner = await seedUser(app);
      const collar = await ownedCollar(app, admin, owner);
      return {
        post: (temperature: number, more: Record<string, unknown> = {}) =>
          postAsCollar(app, collar.device_id, collar.device_key, {
            temperature,
            humidity: 40,
            ...more,
          }),
        pets: () => app.app.inject({ url: '/api/dogs', headers: bearer(owner.token) }),
        stored: async () =>
          (
            await app.app.inject({
              url: `/api/devices/${collar.id}/vitals`,
              headers: bearer(owner.token),
            })
          )
            .json<{ vitals: { temperature: number }[] }>()
            .vitals.map((v) => v.temperature),
      };
    }

    it('keeps running when PostgreSQL drops every connection, as a restart does, and then serves again', async () => {
      const name = `pawguard-restart-${process.pid}-${Date.now()}`;
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.searchParams.set('application_name', name);
      t = await createTestApp({ databaseUrl: url.toString() });
      const owner = await ownerWithCollar(t);
      expect((await owner.post(25)).statusCode).toBe(201);
      // Several idle connections in the pool, as a busy server has.
      const busy = await Promise.all(Array.from({ length: 6 }, () => owner.pets()));
      expect(busy.map((r) => r.statusCode)).toEqual(Array(6).fill(200));
      // And one held by work in progress (between two statements) when the connections drop.
      let carryOn!: () => void;
      const dropped = new Promise<void>((resolve) => (carryOn = resolve));
      const held = t.app.container.db.connection().execute(async (conn) => {
        await sql`select 1`.execute(conn);
        await dropped;
        return sql`select 1`.execute(conn).then(
          () => 'answered',
          (err: unknown) => (isDatabaseUnavailable(err) ? 'unavailable' : String(err)),
        );
      });

      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        const { rowCount } = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [name],
        );
        expect(rowCount).toBeGreaterThan(1);
      } finally {
        await admin.end();
      }
      await until(() => t!.logs().some((l) => l.includes('"event":"db.connection_lost"')));
      carryOn();
      expect(await held).toBe('unavailable');
      const lost = t.logs().filter((l) => l.includes('"event":"db.connection_lost"'));
      // Said once per connection, with what happened and never the connection's details.
      expect(lost.length).toBeGreaterThan(1);
      expect(lost.join('\n')).not.toMatch(/secretKey|processID|"user"|"client"/);

      // A dropped connection the pool has not let go of yet may fail the next request with 503,
      // as it would a real collar's, which sends the reading again (its timestamp keeps it
      // stored once): within moments the server answers.
      const again = async (send: () => Promise<{ statusCode: number }>) => {
        for (let i = 0; ; i++) {
          const res = await send();
          if (res.statusCode !== 503 || i === 20) return res;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const at = new Date().toISOString();
      expect((await again(() => owner.post(26, { timestamp: at }))).statusCode).toBe(201);
      expect((await again(() => owner.pets())).statusCode).toBe(200);
      expect(await owner.stored()).toEqual([26, 25]);
    });

    it('answers 503 with Retry-After while PostgreSQL cannot be reached, stores nothing, and recovers', async () => {
      const target = new URL(process.env.TEST_DATABASE_URL!);
      link = new DatabaseLink({ host: target.hostname, port: Number(target.port || 5432) });
      // Long enough to connect at start on a busy machine (500 ms was not, under CI's load);
      // the silent path below waits for it once.
      t = await createTestApp({
        databaseUrl: await link.open(target.toString()),
        connectTimeoutMs: 2_000,
      });
      const owner = await ownerWithCollar(t);
      expect((await owner.post(25)).statusCode).toBe(201);

      // PostgreSQL down: refused at once.
      link.set('refusing');
      for (const res of [await owner.post(31), await owner.pets()]) {
        expectError(res, 503, DATABASE_UNAVAILABLE);
        expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      }
      // Every request fails in an outage; the log says so at most 20 times a minute (45
      // requests: 40 lines at most, even across the turn of a minute).
      for (let i = 0; i < 43; i++) expect((await owner.pets()).statusCode).toBe(503);
      const outageLines = t.logs().filter((l) => l.includes('"event":"db.unavailable"'));
      expect(outageLines.length).toBeGreaterThanOrEqual(20);
      expect(outageLines.length).toBeLessThanOrEqual(40);
      expect(outageLines.join('\n')).not.toMatch(/secretKey|processID|"client"/);

      // A path that takes new connections and never answers: each is given up on in time.
      link.set('silent');
      expectError(await owner.post(32), 503, DATABASE_UNAVAILABLE);

      link.set('open');
      expect((await owner.post(26)).statusCode).toBe(201);
      expect(await owner.stored()).toEqual([26, 25]);
    });

    it('gives up on a query that gets no answer on an open connection (503), and serves again', async () => {
      const target = new URL(process.env.TEST_DATABASE_URL!);
      link = new DatabaseLink({ host: target.hostname, port: Number(target.port || 5432) });
      t = await createTestApp({
        databaseUrl: await link.open(target.toString()),
        connectTimeoutMs: 2_000,
        queryTimeoutMs: 2_000,
      });
      const owner = await ownerWithCollar(t);
      expect((await owner.post(25)).statusCode).toBe(201);
      // The path goes silent under the pool's open connections: without a deadline, these
      // requests would wait until TCP gives up, many minutes later.
      link.set('stalled');
      const [reading, pets] = await Promise.all([owner.post(33), owner.pets()]);
      expectError(reading, 503, DATABASE_UNAVAILABLE);
      expectError(pets, 503, DATABASE_UNAVAILABLE);
      expect(reading.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      // The connections given up on are let go: the next requests get new ones.
      link.set('open');
      expect((await owner.post(26)).statusCode).toBe(201);
      expect((await owner.pets()).statusCode).toBe(200);
      expect(await owner.stored()).toEqual([26, 25]);
    });

    it('ends a statement that runs past the limit on the server too, answering 503, and serves again', async () => {
      t = await createTestApp({ queryTimeoutMs: 300 });
      const owner = await ownerWithCollar(t);
      const slow = await t.app.container.db
        .connection()
        .execute((conn) => sql`select pg_sleep(5)`.execute(conn))
        .then(
          () => 'answered',
          (err: unknown) => (isDatabaseUnavailable(err) ? (err as { code?: string }).code : err),
        );
      // PostgreSQL cancelled it (57014), and the connection is still good.
      expect(slow).toBe('57014');
      expect((await owner.pets()).statusCode).toBe(200);
      expect((await owner.post(25)).statusCode).toBe(201);
    });
  },
);

describe.skipIf(usePostgres)('when SQLite cannot write (a full disk; on SQLite only)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers 503 with Retry-After, stores nothing, and stores again once there is room', async () => {
    t = await createTestApp();
    const admin = await seedUser(t, { role: 'admin' });
    const owner = await seedUser(t);
    const collar = await ownedCollar(t, admin, owner);
    const post = (payload: unknown) =>
      postAsCollar(t!, collar.device_id, collar.device_key, payload);
    expect((await post({ temperature: 25, humidity: 40 })).statusCode).toBe(201);
    const count = async () =>
      Number(
        (
          await t!.app.container.db
            .selectFrom('readings')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    // The database may not grow: as when the disk is full.
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(
      t.app.container.db,
    );
    await sql.raw(`pragma max_page_count = ${rows[0]!.page_count}`).execute(t.app.container.db);
    const now = Date.now();
    const backlog = Array.from({ length: 1000 }, (_, i) => ({
      temperature: 25,
      humidity: 40,
      timestamp: now - (i + 1) * 1000,
    }));
    const res = await post(backlog);
    expectError(res, 503, DATABASE_UNAVAILABLE);
    expect(res.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(await count()).toBe(1);

    await sql.raw('pragma max_page_count = 1073741823').execute(t.app.container.db);
    expect((await post(backlog)).statusCode).toBe(201);
    expect(await count()).toBe(1001);
  });

  it('reports the error of a transaction that SQLite rolled back itself, not a failed ROLLBACK', async () => {
    // A full disk may make SQLite undo the whole transaction; INSERT OR ROLLBACK does so at will.
    t = await createTestApp();
    const db = t.app.container.db;
    await sql`create table rolled_back (id integer primary key)`.execute(db);
    await sql`insert into rolled_back (id) values (1)`.execute(db);
    const failure = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into rolled_back (id) values (2)`.execute(trx);
        await sql`insert or rollback into rolled_back (id) values (1)`.execute(trx);
      })
      .catch((err: unknown) => err as { code?: string; message?: string });
    expect(failure).toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    const { rows } = await sql<{ id: number }>`select id from rolled_back`.execute(db);
    expect(rows.map((r) => r.id)).toEqual([1]);
  });
});
