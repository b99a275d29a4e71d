// The one line `npm test` ends with: "N passed, N failed, N skipped" over every test that
// ran or was skipped, the browser suite included.
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

/** Counts from Vitest's JSON report and Playwright's (or e2e/run.mjs's skip note). */
export function countResults(vitest, e2e) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  if (vitest) {
    counts.passed += vitest.numPassedTests ?? 0;
    counts.failed += vitest.numFailedTests ?? 0;
    counts.skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
  }
  // Playwright's JSON report: expected = passed, unexpected = failed, flaky = passed on retry.
  // Without Chromium, e2e/run.mjs writes the same shape with every browser test skipped.
  const e = e2e?.stats;
  if (e) {
    counts.passed += (e.expected ?? 0) + (e.flaky ?? 0);
    counts.failed += e.unexpected ?? 0;
    counts.skipped += e.skipped ?? 0;
  }
  return counts;
}

/**
 * The Vitest tests that failed, a line each with the first line of why, so the end of a long
 * run names them (the browser suite's list reporter already names its own failures). Also a
 * file that failed before any test ran, such as an import error.
 */
export function failedTests(vitest, root) {
  const lines = [];
  for (const file of vitest?.testResults ?? []) {
    const name = root ? path.relative(root, file.name) : file.name;
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) lines.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages)}`);
    if (!failed.length && file.status === 'failed')
      lines.push(`${name}: ${firstLine([file.message])}`);
  }
  return lines;
}

/**
 * The browser tests that failed, from Playwright's JSON report, a line each as for Vitest: the
 * list reporter names them high up in a long log, where the end of a run no longer shows them.
 */
export function failedBrowserTests(e2e) {
  const lines = [];
  const visit = (suite, titles) => {
    // A file's own suite is titled by its file name; a describe() by its title.
    const here = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected') {
          // Playwright colours its messages.
          const errors = (test.results ?? []).map((r) =>
            stripVTControlCharacters(r.error?.message ?? ''),
          );
          const name = [...here, spec.title].join(' › ');
          lines.push(`e2e/specs/${spec.file ?? suite.file} › ${name}: ${firstLine(errors)}`);
        }
    for (const child of suite.suites ?? []) visit(child, here);
  };
  for (const suite of e2e?.suites ?? []) visit(suite, []);
  return lines;
}

function firstLine(messages) {
  return (messages?.find(Boolean) ?? '').split('\n')[0].slice(0, 300);
}

export function summaryLine(counts, e2e) {
  const line = `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
  return e2e?.skippedSuite ? `${line} (browser suite skipped: no Chromium)` : line;
}

/** How many browser tests the specs declare: `test('…'` calls, `test.describe` excluded. */
export function countDeclaredTests(sources) {
  let n = 0;
  for (const text of sources)
    n += (text.match(/(^|[^.\w])test(\.slow|\.fixme)?\(\s*['"`]/gm) ?? []).length;
  return n;
}

/**
 * The time each step took, one a line, for the end of a run: `before` names steps that ran
 * ahead of `npm test` (.ci/run passes "npm ci=25,Chromium=0"), `total` is `npm test`'s own
 * wall-clock time, less than the steps' sum where steps ran side by side.
 * @param {{ title: string, seconds: number, ok: boolean }[]} phases
 * @param {{ before?: string, total?: number }} [options]
 */
export function phaseTable(phases, { before, total } = {}) {
  const rows = [];
  for (const item of (before ?? '').split(',')) {
    const [title, seconds] = item.split('=');
    if (title?.trim() && Number.isFinite(Number(seconds)))
      rows.push([title.trim(), `${Number(seconds)} s`]);
  }
  for (const p of phases) rows.push([p.title, `${p.seconds} s${p.ok ? '' : ' (failed)'}`]);
  if (total !== undefined) rows.push(['npm test, wall clock', `${total} s`]);
  const width = Math.max(...rows.map(([title]) => title.length));
  return ['Time by phase:', ...rows.map(([t, s]) => `  ${t.padEnd(width)}  ${s}`)].join('\n');
}
