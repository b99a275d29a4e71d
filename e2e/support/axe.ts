import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on a screen: no serious or critical violations, and no sideways scrolling. The
 * script is evaluated through the DevTools protocol, which the page's `script-src 'self'`
 * policy does not govern, so the CSP stays on while we check.
 */
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

type AxeLike = {
  run: (
    context: Document,
    options: object,
  ) => Promise<{
    violations: {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[] }[];
    }[];
  }>;
};

type Finding = { id: string; impact: string | null; help: string; targets: string[] };

async function seriousViolations(page: Page): Promise<Finding[]> {
  // A toast still fading in or out is read at its passing opacity, as text of too little
  // contrast: the check waits (up to 10 s) for every animation that ends (not a spinner) to end.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity,
          ),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: AxeLike }).axe;
    const results = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }));
  });
}

export async function expectAccessible(page: Page, what: string): Promise<void> {
  expect(await seriousViolations(page), `serious or critical axe violations on ${what}`).toEqual(
    [],
  );
  // Works at this width without sideways scrolling (wide tables scroll inside their own region).
  const width = page.viewportSize()?.width ?? 0;
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `no horizontal scrolling on ${what}`,
  ).toBeLessThanOrEqual(width);
}
