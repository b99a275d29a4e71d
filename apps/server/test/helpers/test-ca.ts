import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { generate } from 'selfsigned';

/**
 * A certificate authority made for one test run, and a certificate it issued for loopback
 * (localhost, 127.0.0.1 and ::1): what a local HTTPS server in a test (the push receiver) serves,
 * trusted by the server code under test the way production trusts a private CA, through
 * NODE_EXTRA_CA_CERTS and with no option of its own.
 *
 * NODE_EXTRA_CA_CERTS is read only when a process starts, so the authority is made before the
 * processes that need it: test/global-setup.ts makes it in vitest's main process and sets the
 * variable before the server workers are forked (they and any server process a test starts
 * inherit it); an e2e runner calls createTestTls itself and passes trustEnv() to the server it
 * starts. Nothing here is ever written into the repository: the keys live in a temporary folder
 * for the length of the run.
 */
export interface TestTls {
  dir: string;
  /** The authority's certificate (PEM). */
  caPath: string;
  /** What NODE_EXTRA_CA_CERTS names: any extra CAs the run started with, then the authority. */
  trustPath: string;
  /** The loopback certificate and its private key (PEM), for https.createServer. */
  certPath: string;
  keyPath: string;
}

/** The variable naming the folder of the run's TestTls (set by test/global-setup.ts). */
export const TEST_TLS_DIR = 'TEST_TLS_DIR';

const files = (dir: string): TestTls => ({
  dir,
  caPath: path.join(dir, 'ca.pem'),
  trustPath: path.join(dir, 'trusted.pem'),
  certPath: path.join(dir, 'localhost.pem'),
  keyPath: path.join(dir, 'localhost-key.pem'),
});

/**
 * Makes a P-256 authority and a loopback certificate it signs, valid for a week, into `dir`.
 * `extraCaCerts` is a PEM file already trusted (the NODE_EXTRA_CA_CERTS the run was started
 * with, e.g. a company proxy's): it is kept in front of the authority in trustPath.
 */
export async function createTestTls(
  dir: string,
  extraCaCerts = process.env.NODE_EXTRA_CA_CERTS,
): Promise<TestTls> {
  const out = files(dir);
  const notBeforeDate = new Date(Date.now() - 60 * 60_000);
  const notAfterDate = new Date(Date.now() + 7 * 24 * 60 * 60_000);
  const common = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' } as const;
  const ca = await generate([{ name: 'commonName', value: 'PawGuard test CA (one run)' }], {
    ...common,
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    ...common,
    notBeforeDate,
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  const earlier = extraCaCerts
    ? await fs.promises.readFile(extraCaCerts, 'utf8').catch(() => '')
    : '';
  await fs.promises.mkdir(dir, { recursive: true });
  await fs.promises.writeFile(out.caPath, ca.cert);
  await fs.promises.writeFile(out.trustPath, `${earlier.trimEnd()}\n${ca.cert}`.trimStart());
  await fs.promises.writeFile(out.certPath, leaf.cert);
  await fs.promises.writeFile(out.keyPath, leaf.private, { mode: 0o600 });
  return out;
}

/** The environment a child process needs to trust `t` (e.g. a server started for e2e). */
export const trustEnv = (t: TestTls): { NODE_EXTRA_CA_CERTS: string } => ({
  NODE_EXTRA_CA_CERTS: t.trustPath,
});

/** The run's TestTls, made by test/global-setup.ts. */
export function testTls(): TestTls {
  const dir = process.env[TEST_TLS_DIR];
  if (!dir || !fs.existsSync(path.join(dir, 'ca.pem')))
    throw new Error(
      `${TEST_TLS_DIR} names no test CA: run through vitest.config.ts, whose server projects make one in test/global-setup.ts`,
    );
  return files(dir);
}

const pemBody = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');

/**
 * Whether this process's default trust store holds `t`'s authority, i.e. whether it started
 * with NODE_EXTRA_CA_CERTS naming it. A vitest pool of threads, or a process started before the
 * authority was made, does not.
 */
export function trustsTestCa(t: TestTls): boolean {
  const ca = pemBody(fs.readFileSync(t.caPath, 'utf8'));
  return tls.getCACertificates('default').some((c) => pemBody(c) === ca);
}
