import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BacktestTally, VITALS_STATUSES, asVitalsStatus } from '@pawguard/shared';
import {
  backtestOf,
  combineSummaries,
  readingSummary,
  summarise,
  type RollupReading,
} from './rollup-summary.js';

const level = fc.constantFrom(...VITALS_STATUSES);
/** Readings oldest first: levels, and steps of 1 s to 15 minutes between them. */
const readings = fc
  .array(
    fc.record({
      step: fc.integer({ min: 1, max: 900 }),
      status: level,
      risk_band: fc.option(level),
      temperature: fc.integer({ min: 10, max: 45 }),
      heart_rate: fc.option(fc.integer({ min: 40, max: 200 })),
    }),
    { maxLength: 60 },
  )
  .map((list) => {
    let at = 1_700_000_000_000;
    return list.map((r): RollupReading => ({
      recorded_at: (at += r.step * 1000),
      temperature: r.temperature,
      humidity: 50,
      heart_rate: r.heart_rate,
      activity_level: null,
      status: r.status,
      risk_band: r.risk_band,
    }));
  });

function tallied(rs: RollupReading[]) {
  const tally = new BacktestTally();
  for (const r of rs)
    tally.add({
      at: r.recorded_at,
      status: asVitalsStatus(r.status) ?? 'SAFE',
      risk_band: asVitalsStatus(r.risk_band),
    });
  return tally.result();
}

describe('rollup summaries', () => {
  it('give the back-test of the readings they sum up, however the readings are split into buckets', () => {
    fc.assert(
      fc.property(readings, fc.array(fc.nat(), { maxLength: 6 }), (rs, cuts) => {
        // Buckets cut anywhere, each summed on its own, then the buckets one after another.
        const at = [...new Set(cuts.map((c) => c % (rs.length + 1)))].sort((a, b) => a - b);
        const buckets = [0, ...at, rs.length].slice(1).map((end, i, ends) => {
          const start = i === 0 ? 0 : ends[i - 1]!;
          return summarise(rs.slice(start, end), readingSummary);
        });
        const whole = summarise(buckets, (b) => b);
        const expected = tallied(rs);
        const got = backtestOf(whole);
        expect(got.model_only_alerts).toBe(expected.model_only_alerts);
        for (const s of ['thresholds', 'model'] as const) {
          expect(got[s].alerts).toBe(expected[s].alerts);
          expect(got[s].highest).toBe(expected[s].highest);
          // Summed in milliseconds here, in fractions of a minute there.
          expect(
            Math.abs(got[s].minutes_elevated - expected[s].minutes_elevated),
          ).toBeLessThanOrEqual(1);
        }
        expect(whole.count).toBe(rs.length);
      }),
      { numRuns: 500 },
    );
  });

  it('keep min, max, sum and count of each series, a missing value counted out', () => {
    const rs = [
      { t: 20, hr: 100 },
      { t: 24, hr: null },
      { t: 22, hr: 80 },
    ].map((r, i): RollupReading => ({
      recorded_at: i * 1000,
      temperature: r.t,
      humidity: 40,
      heart_rate: r.hr,
      activity_level: null,
      status: 'SAFE',
      risk_band: null,
    }));
    const s = summarise(rs, readingSummary);
    expect(s.temperature).toEqual({ min: 20, max: 24, sum: 66, count: 3 });
    expect(s.heartRate).toEqual({ min: 80, max: 100, sum: 180, count: 2 });
    expect(s.activity).toEqual({ min: null, max: null, sum: 0, count: 0 });
    expect(combineSummaries(s, summarise([], readingSummary))).toBe(s);
  });
});
