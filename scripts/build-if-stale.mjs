// Builds the web app and the server when their outputs are missing or older than the
// sources, so `npm start` and the e2e suite never serve a stale bundle. Shared by
// scripts/start.mjs and e2e/run.mjs.
import { spawn } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Everything a build reads (relative to the repo root). Directories are walked. */
export const BUILD_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'packages/shared/src',
  'packages/shared/package.json',
  'packages/shared/tsconfig.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/scripts',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'apps/web/vite.config.ts',
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/server/tsup.config.ts',
];

/** What `npm run build` produces; each must exist and be newer than every input. */
export const BUILD_OUTPUTS = [
  'apps/web/dist/index.html',
  'apps/server/dist/server.js',
  'apps/server/dist/backup-cli.js',
];

const SKIP_DIRS = new Set(['node_modules', 'dist', '.vite', 'coverage']);

async function mtimeOrNull(file) {
  try {
    return (await stat(file)).mtimeMs;
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
}

/** The newest modification time under `target` (a file or a directory), or 0 if absent. */
async function newestMtime(target) {
  let info;
  try {
    info = await stat(target);
  } catch (err) {
    if (err.code === 'ENOENT') return 0;
    throw err;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  // A deleted file only changes its directory's mtime, so the directory counts too.
  let newest = info.mtimeMs;
  for (const entry of await readdir(target, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIP_DIRS.has(entry.name)) continue;
    newest = Math.max(newest, await newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/**
 * Why a build is needed, or null when the outputs are up to date.
 * @param {string} root the repository root
 * @returns {Promise<string | null>}
 */
export async function staleReason(root) {
  const outputTimes = [];
  for (const output of BUILD_OUTPUTS) {
    const time = await mtimeOrNull(path.join(root, output));
    if (time === null) return `${output} is missing`;
    outputTimes.push(time);
  }
  const oldestOutput = Math.min(...outputTimes);
  for (const input of BUILD_INPUTS) {
    if ((await newestMtime(path.join(root, input))) > oldestOutput)
      return `${input} changed since the last build`;
  }
  return null;
}

function runBuild(root) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`npm run build failed (${signal ?? `exit code ${code}`})`));
    });
  });
}

/**
 * Runs `npm run build` at `root` when apps/web/dist or apps/server/dist is missing or older
 * than the sources. Resolves to true when it built, false when the build was fresh; rejects
 * when the build fails.
 * @param {{ root: string, log?: (message: string) => void }} options
 * @returns {Promise<boolean>}
 */
export async function buildIfStale({ root, log = console.log }) {
  const reason = await staleReason(root);
  if (reason === null) {
    log('Build is up to date.');
    return false;
  }
  log(`Building (${reason})...`);
  await runBuild(root);
  return true;
}
