#!/usr/bin/env node
// `npm test`: everything — typecheck, lint, unit and integration tests (the server suite on
// SQLite, and on PostgreSQL when TEST_DATABASE_URL is set), then the browser suite. Ends with
// one line "N passed, N failed, N skipped" over every test that ran.
//
// On a machine of two cores it runs in two rounds of steps side by side: typecheck, lint and
// the build the browser suite serves; then the unit and integration tests beside the browser
// suite. Neither step of a pair keeps both cores busy on its own (each waits on processes,
// the database and the browser), so together they take little more than the longer one.
// Each step's output is kept and printed whole when it ends, so steps never interleave.
import './require-node.mjs';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason } from './build-if-stale.mjs';
import {
  countResults,
  failedBrowserTests,
  failedTests,
  phaseTable,
  summaryLine,
} from './summary.mjs';

const testStarted = Date.now();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-results-'));
const vitestJson = path.join(resultsDir, 'vitest.json');
const e2eJson = path.join(resultsDir, 'e2e.json');

/** How long each step took, in order of ending: { title, seconds, ok }. */
const phases = [];

/**
 * Runs one step with its output kept in a file, then prints it under the step's title.
 * Resolves to true when the step exited 0.
 */
function step(title, cmd, args, env = {}) {
  const log = path.join(resultsDir, `${title.replace(/\W+/g, '-')}.log`);
  const out = fs.openSync(log, 'w');
  const started = Date.now();
  console.log(`=== ${title}: started`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['ignore', out, out],
      env: { ...process.env, ...env },
    });
    const finish = (ok, why = '') => {
      fs.closeSync(out);
      const seconds = Math.round((Date.now() - started) / 1000);
      phases.push({ title, seconds, ok });
      console.log(`\n=== ${title}`);
      process.stdout.write(fs.readFileSync(log, 'utf8'));
      console.log(`=== ${title}: ${ok ? 'ok' : `FAILED${why}`} (${seconds} s)`);
      resolve(ok);
    };
    child.on('error', (err) => finish(false, `: ${err.message}`));
    child.on('exit', (code, signal) => finish(code === 0, signal ? ` (${signal})` : ''));
  });
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
const record = (title) => (ok) => {
  if (!ok) failures.push(title);
};

const buildNeeded = await staleReason(root);
await Promise.all([
  step('typecheck', 'npm', ['run', 'typecheck']).then(record('typecheck')),
  step('lint', 'npm', ['run', 'lint']).then(record('lint')),
  // The browser suite serves the build; making it now lets the suite start at once.
  buildNeeded
    ? step('build', 'npm', ['run', 'build']).then(record('build'))
    : Promise.resolve(console.log('=== build: up to date')),
]);
await Promise.all([
  step('unit and integration tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestJson}`,
  ]).then(record('unit and integration tests')),
  step('browser tests', 'npm', ['run', 'test:e2e'], { PAWGUARD_E2E_SUMMARY: e2eJson }).then(
    record('browser tests'),
  ),
]);

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
const failedUnitTests = [...failedTests(v, root), ...failedBrowserTests(e)];
if (failedUnitTests.length)
  console.log(`Failed tests:\n${failedUnitTests.map((l) => `  ${l}`).join('\n')}`);
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(
  phaseTable(phases, {
    before: process.env.PAWGUARD_CI_PHASES,
    total: Math.round((Date.now() - testStarted) / 1000),
  }),
);
console.log(summaryLine(counts, e));
process.exit(failures.length ? 1 : 0);
