import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestTls, TEST_TLS_DIR } from './helpers/test-ca.js';

/**
 * Runs in vitest's main process before the server workers are forked: makes the run's test CA
 * (helpers/test-ca.ts) and names it in NODE_EXTRA_CA_CERTS, which a process reads only as it
 * starts. The workers inherit it, and so does every server process a test starts, so their
 * HTTPS requests to a test's receiver (helpers/push-receiver.ts) are verified against Node's
 * default trust store as in production.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // `server` and `server-pg` each run this; the first one's CA serves both.
  if (process.env[TEST_TLS_DIR]) return undefined;
  const before = process.env.NODE_EXTRA_CA_CERTS;
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'pawguard-test-ca-'));
  const made = await createTestTls(dir, before);
  process.env[TEST_TLS_DIR] = dir;
  process.env.NODE_EXTRA_CA_CERTS = made.trustPath;
  return async () => {
    delete process.env[TEST_TLS_DIR];
    if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = before;
    await fs.promises.rm(dir, { recursive: true, force: true });
  };
}
