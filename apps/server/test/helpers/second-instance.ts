import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/index.js';
import { seedUser, type TestApp } from './app.js';
import { ownedCollar } from './devices.js';
import { postAsCollar } from './readings.js';
import { openStream, readingOf, ticketFor } from './sse.js';

/**
 * A second server instance on the test app's PostgreSQL schema, with the same configuration,
 * listening on a port of its own: `use` gets it and its address; it is closed afterwards.
 */
export async function withSecondInstance(
  t: TestApp,
  use: (second: FastifyInstance, base: string) => Promise<void>,
): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-second-'));
  const db = await openDatabase({
    dataDir,
    databaseUrl: process.env.TEST_DATABASE_URL!,
    pgSchema: t.dbHandle.schema!,
  });
  const second = await buildApp({
    config: t.config,
    db,
    startWorkers: false,
    clock: t.clock,
    logStream: new PassThrough(),
  });
  try {
    await second.ready();
    await use(second, await second.listen({ port: 0, host: '127.0.0.1' }));
  } finally {
    await second.close();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A collar's reading posted to the test app arrives on its owner's stream opened at `base`. */
export async function expectReadingArrivesAt(t: TestApp, base: string): Promise<void> {
  const admin = await seedUser(t, { role: 'admin' });
  const owner = await seedUser(t);
  const c = await ownedCollar(t, admin, owner);
  const s = await openStream(base, await ticketFor(t, owner.token));
  try {
    expect(s.status).toBe(200);
    await postAsCollar(t, c.device_id, c.device_key, { temperature: 27, humidity: 40 });
    const e = await s.next(readingOf(c.id));
    expect((e.data as { reading: { temperature: number } }).reading.temperature).toBe(27);
  } finally {
    s.close();
  }
}
