// Where a server's CPU went, by stage: a V8 CPU profile (`node --cpu-prof`) of the server,
// cut to a time window, each sample's own time given to the source file it ran in (the
// bundle's source map turns dist/serve-*.js back into apps/server/src/… and
// packages/shared/…), then summed by file, by package for node_modules, and by area for
// Node's own code. Used by `npm run bench:ingest -- --profile`.
import fs from 'node:fs';
import path from 'node:path';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Microseconds on the clock V8's profiles use (CLOCK_MONOTONIC, as process.hrtime). */
export const profileClockUs = () => Number(process.hrtime.bigint() / 1000n);

const maps = new Map();
function sourceMapOf(file) {
  if (!maps.has(file)) {
    let map = null;
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // no map: the bundle's own name stands
    }
    maps.set(file, map);
  }
  return maps.get(file);
}

/** The stage a call frame belongs to: a source file of ours, a package, or Node's own code. */
function stageOf({ functionName, url, lineNumber, columnNumber }, root) {
  if (!url) {
    if (functionName === '(garbage collector)') return 'V8: garbage collector';
    if (functionName === '(program)') return 'V8: compiler and runtime';
    if (functionName === '(idle)') return '(idle)';
    return `V8: native ${functionName.startsWith('RegExp:') ? 'RegExp' : functionName}`;
  }
  if (url.startsWith('node:')) return `Node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  let file = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (file.includes('/dist/')) {
    const entry = sourceMapOf(file)?.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource)
      file = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : path.resolve(path.dirname(file), entry.originalSource);
  }
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 14).split('/');
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    // The SQLite statements themselves run inside kysely's driver call into better-sqlite3.
    if (pkg === 'kysely' && file.endsWith('sqlite-driver.js') && functionName === 'executeQuery')
      return 'SQLite: statements (native, through better-sqlite3)';
    if (pkg === 'better-sqlite3') return 'SQLite: statements (native, through better-sqlite3)';
    return `package: ${pkg}`;
  }
  return path.relative(root, file);
}

/**
 * Self time per stage (ms) of the samples between `fromUs` and `toUs` (profileClockUs), and
 * the busy total (every sample but idle).
 */
export function cpuStages(profileFile, { fromUs, toUs, root }) {
  const p = JSON.parse(fs.readFileSync(profileFile, 'utf8'));
  const frames = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  const stageOfNode = new Map();
  const byStage = new Map();
  let t = p.startTime;
  let busy = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    if (t < fromUs || t > toUs) return;
    if (!stageOfNode.has(id)) stageOfNode.set(id, stageOf(frames.get(id), root));
    const stage = stageOfNode.get(id);
    if (stage === '(idle)') return;
    busy += dt;
    byStage.set(stage, (byStage.get(stage) ?? 0) + dt);
  });
  const stages = [...byStage]
    .map(([stage, us]) => ({ stage, ms: us / 1000 }))
    .sort((a, b) => b.ms - a.ms);
  return { busyMs: busy / 1000, stages };
}

/** The newest profile V8 wrote into `dir` (one per thread: the main thread's is the largest). */
export function mainThreadProfile(dir) {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f));
  if (!files.length) throw new Error(`No CPU profile was written into ${dir}`);
  return files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
}
