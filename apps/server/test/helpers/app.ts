import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/env.js';
import { openDatabase, type DbHandle } from '../../src/db/index.js';
import type { MailTransport, MailMessage } from '../../src/services/mail-transport.js';
import type { Clock } from '../../src/services/clock.js';

export const usePostgres = process.env.TEST_DB === 'postgres';

/**
 * One argon2id hash of TEST_PASSWORD, computed once: seeded users share it so only the auth
 * tests pay for hashing.
 */
export const TEST_PASSWORD = 'correct horse battery';
export const TEST_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$HGoHGLBw2rVBpaMV/XXUOQ$K0dq/hK72Y4IYKQR7w/4+ySPd98jMKVyuyk/rhnp5hM';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  logs: () => string[];
  mail: MailMessage[];
  clock: MutableClock;
  /** The database handle (its PostgreSQL schema, for a second instance on the same data). */
  dbHandle: DbHandle;
  close(): Promise<void>;
}

export class MutableClock implements Clock {
  private offset = 0;
  now() {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number) {
    this.offset += ms;
  }
}

/** A transport that keeps what it was given; tests with a real SMTP server use smtp-server. */
export function memoryTransport(sink: MailMessage[]): MailTransport {
  return {
    kind: 'file',
    async send(m) {
      sink.push(m);
      return {};
    },
    close() {},
  };
}

export async function createPgSchema(): Promise<{ schema: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    buildOptions?: Partial<BuildAppOptions>;
    /** On PostgreSQL (ignored on SQLite): reach the test database at this address instead (a proxy in front of it)… */
    databaseUrl?: string;
    /** …and give up on a new connection after this long (ms)… */
    connectTimeoutMs?: number;
    /** …and on a query's answer after this long (ms). */
    queryTimeoutMs?: number;
    /** An existing DATA_DIR to start on (a restored backup); removed on close like a new one. */
    dataDir?: string;
  } = {},
): Promise<TestApp> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-test-'));
  const logLines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) =>
    logLines.push(...chunk.toString().split('\n').filter(Boolean)),
  );
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: TEST_PASSWORD,
    RATE_LIMIT_MULTIPLIER: '100',
    JWT_SECRET: 'test-secret-that-is-long-enough-0123456789abcdef',
    ...options.env,
  });
  let db: DbHandle;
  let dropSchema: (() => Promise<void>) | undefined;
  if (usePostgres) {
    const { schema, drop } = await createPgSchema();
    dropSchema = drop;
    db = await openDatabase({
      dataDir,
      databaseUrl: options.databaseUrl ?? process.env.TEST_DATABASE_URL!,
      pgSchema: schema,
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    });
  } else {
    db = await openDatabase({ dataDir });
  }
  const mail: MailMessage[] = [];
  const clock = new MutableClock();
  const app = await buildApp({
    config,
    db,
    clock,
    logStream: stream,
    mailTransport: memoryTransport(mail),
    startWorkers: false,
    // Repeated ingest refusals are answered without their second's wait, unless a test holds
    // them itself (security/refusal-delay.test.ts).
    refusalDelay: { sleep: async () => {} },
    ...options.buildOptions,
  });
  await app.ready();
  return {
    app,
    config,
    dataDir,
    logs: () => logLines,
    mail,
    clock,
    dbHandle: db,
    async close() {
      await app.close();
      await db.close();
      await dropSchema?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SeededUser {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'user';
  token: string;
}

/** Inserts a user with the shared hash and signs in through the API (a real session). */
export async function seedUser(
  t: TestApp,
  overrides: Partial<{ email: string; name: string; role: 'admin' | 'user' }> = {},
): Promise<SeededUser> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const email = overrides.email ?? `user-${id.slice(0, 8)}@example.com`;
  const name = overrides.name ?? `User ${id.slice(0, 4)}`;
  const role = overrides.role ?? 'user';
  await t.app.container.repos.users.insert({
    id,
    email,
    name,
    password_hash: TEST_PASSWORD_HASH,
    role,
    email_verified_at: null,
    created_at: now,
    updated_at: now,
  });
  const token = await login(t, email, TEST_PASSWORD);
  return { id, email, name, role, token };
}

export async function login(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json() as T;
}
