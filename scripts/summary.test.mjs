import { describe, expect, it } from 'vitest';
import {
  countDeclaredTests,
  countResults,
  failedBrowserTests,
  failedTests,
  phaseTable,
  summaryLine,
} from './summary.mjs';

describe('the npm test summary line', () => {
  it('adds Vitest and Playwright counts', () => {
    const counts = countResults(
      { numPassedTests: 10, numFailedTests: 1, numPendingTests: 2, numTodoTests: 0 },
      { stats: { expected: 5, flaky: 1, unexpected: 0, skipped: 1 } },
    );
    expect(summaryLine(counts, {})).toBe('16 passed, 1 failed, 3 skipped');
  });

  it('counts every test of a skipped browser suite as skipped, and says why', () => {
    const skippedSuite = { skippedSuite: true, stats: { expected: 0, unexpected: 0, skipped: 7 } };
    const counts = countResults({ numPassedTests: 10 }, skippedSuite);
    expect(summaryLine(counts, skippedSuite)).toBe(
      '10 passed, 0 failed, 7 skipped (browser suite skipped: no Chromium)',
    );
  });

  it('counts the tests the specs declare', () => {
    const spec = `test.describe('x', () => {\n  test('a', async () => {});\n  test.slow();\n  test("b", async () => {});\n});\ntest(\`c\`, () => {});`;
    expect(countDeclaredTests([spec])).toBe(3);
  });

  it('names each failed test with the first line of why, and a file that failed to load', () => {
    const report = {
      testResults: [
        {
          name: '/repo/apps/server/test/a.test.ts',
          status: 'failed',
          assertionResults: [
            {
              fullName: 'ingest keeps order',
              status: 'failed',
              failureMessages: ['AssertionError: expected 1 to be 2\n    at x'],
            },
            { fullName: 'ingest stores once', status: 'passed', failureMessages: [] },
          ],
        },
        {
          name: '/repo/apps/web/b.test.tsx',
          status: 'failed',
          message: 'Cannot find module x\nstack',
          assertionResults: [],
        },
        {
          name: '/repo/c.test.ts',
          status: 'passed',
          assertionResults: [{ fullName: 'c', status: 'passed' }],
        },
      ],
    };
    expect(failedTests(report, '/repo')).toEqual([
      'apps/server/test/a.test.ts › ingest keeps order: AssertionError: expected 1 to be 2',
      'apps/web/b.test.tsx: Cannot find module x',
    ]);
    expect(failedTests(null, '/repo')).toEqual([]);
  });

  it('names each failed browser test with the first line of why, without colours', () => {
    const report = {
      suites: [
        {
          title: 'alerts.spec.ts',
          file: 'alerts.spec.ts',
          specs: [
            {
              title: 'opens an alert',
              file: 'alerts.spec.ts',
              tests: [
                {
                  status: 'unexpected',
                  results: [
                    {
                      error: {
                        message: '\x1b[31mError: expect(locator).toBeVisible()\x1b[39m\nstack',
                      },
                    },
                  ],
                },
              ],
            },
            {
              title: 'passes',
              file: 'alerts.spec.ts',
              tests: [{ status: 'expected', results: [] }],
            },
            { title: 'flaky', file: 'alerts.spec.ts', tests: [{ status: 'flaky', results: [] }] },
          ],
          suites: [
            {
              title: 'on a phone',
              file: 'alerts.spec.ts',
              specs: [
                {
                  title: 'fits',
                  file: 'alerts.spec.ts',
                  tests: [{ status: 'unexpected', results: [{ error: { message: 'Timeout' } }] }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(failedBrowserTests(report)).toEqual([
      'e2e/specs/alerts.spec.ts › opens an alert: Error: expect(locator).toBeVisible()',
      'e2e/specs/alerts.spec.ts › on a phone › fits: Timeout',
    ]);
    expect(failedBrowserTests(null)).toEqual([]);
  });

  it('lists the time of each phase, the steps before npm test first, then the wall clock', () => {
    const table = phaseTable(
      [
        { title: 'typecheck', seconds: 31, ok: true },
        { title: 'browser tests', seconds: 240, ok: false },
      ],
      { before: 'npm ci=25, Chromium=0, nonsense', total: 300 },
    );
    expect(table.split('\n')).toEqual([
      'Time by phase:',
      '  npm ci                25 s',
      '  Chromium              0 s',
      '  typecheck             31 s',
      '  browser tests         240 s (failed)',
      '  npm test, wall clock  300 s',
    ]);
  });
});
