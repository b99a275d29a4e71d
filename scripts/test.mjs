#!/usr/bin/env node
// `npm test`: everything, in order — typecheck, lint, unit and integration tests (the server
// suite on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set), then the browser suite.
// Ends with one line "N passed, N failed, N skipped" over every test that ran.
import './require-node.mjs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { countResults, failedTests, summaryLine } from './summary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-results-'));
const vitestJson = path.join(resultsDir, 'vitest.json');
const e2eJson = path.join(resultsDir, 'e2e.json');

function step(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(
    `=== ${title}: ${r.status === 0 ? 'ok' : 'FAILED'} (${Math.round((Date.now() - started) / 1000)} s)`,
  );
  return r.status === 0;
}

if (process.env.TEST_DATABASE_URL)
  console.log(`Server suite runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).`);
else
  console.log(
    'TEST_DATABASE_URL is not set: the server suite runs on SQLite only (PostgreSQL skipped).',
  );

if (!process.env.TEST_REDIS_URL)
  console.log('TEST_REDIS_URL is not set: the live-event tests over Redis skip.');

const failures = [];
if (!step('typecheck', 'npm', ['run', 'typecheck'])) failures.push('typecheck');
if (!step('lint', 'npm', ['run', 'lint'])) failures.push('lint');
if (
  !step('unit and integration tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ])
)
  failures.push('unit and integration tests');
if (!step('browser tests', 'npm', ['run', 'test:e2e'], { PAWGUARD_E2E_SUMMARY: e2eJson }))
  failures.push('browser tests');

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};
const v = readJson(vitestJson);
const e = readJson(e2eJson);
const counts = countResults(v, e);
fs.rmSync(resultsDir, { recursive: true, force: true });

console.log('');
const failedUnitTests = failedTests(v, root);
if (failedUnitTests.length)
  console.log(`Failed tests:\n${failedUnitTests.map((l) => `  ${l}`).join('\n')}`);
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(summaryLine(counts, e));
process.exit(failures.length ? 1 : 0);
