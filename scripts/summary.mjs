// The one line `npm test` ends with: "N passed, N failed, N skipped" over every test that
// ran or was skipped, the browser suite included.

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
