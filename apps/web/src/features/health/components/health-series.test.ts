import { describe, expect, it } from 'vitest';
import { makeActivityDay } from '@/testing/activity';
import { makeAlert } from '@/testing/devices';
import {
  alertsInRange,
  dayLabel,
  formatMinutes,
  rangeSummary,
  toDayPoints,
  walksNewestFirst,
} from './health-series';

const walk = (start: string, minutes: number) => ({
  start,
  minutes,
  peak_heat_index_c: null,
  peak_level: 'SAFE' as const,
});

describe('the health dashboard series', () => {
  it('stacks vigorous within active minutes and keeps minutes above Safe apart', () => {
    const [point] = toDayPoints([
      makeActivityDay({ active_minutes: 50, vigorous_minutes: 15, heat_minutes: 12 }),
    ]);
    expect(point).toMatchObject({ moderate: 35, vigorous: 15, heat: 12, goal: 60 });
  });

  it('gives rest and sleep in hours, and the resting heart rate rounded', () => {
    const [point] = toDayPoints([
      makeActivityDay({ rest_minutes: 90, sleep_minutes: 545, resting_heart_rate: 71.6 }),
    ]);
    expect(point).toMatchObject({ restHours: 1.5, sleepHours: 9.1, restingHeartRate: 72 });
  });

  it('names a local day at midnight UTC, so no browser zone moves it', () => {
    expect(dayLabel('2025-07-01', 'long')).toMatch(/Jul\s+1|1\s+Jul/);
  });

  it('sums the range from worn days only', () => {
    const summary = rangeSummary([
      makeActivityDay({ active_minutes: 40, met: true }),
      makeActivityDay({ active_minutes: 0, worn_minutes: 0, resting_heart_rate: null }),
      makeActivityDay({ active_minutes: 20, heat_day: true, resting_heart_rate: 80 }),
    ]);
    expect(summary).toMatchObject({ wornDays: 2, metDays: 1, heatDays: 1, averageActive: 30 });
    expect(summary.heartRate).toEqual({ average: 76, first: 72, last: 80 });
    expect(summary.levelTotals.SAFE).toBe(3_000);
  });

  it('lists the walks newest first, each with its day', () => {
    const walks = walksNewestFirst([
      makeActivityDay({ date: '2025-06-30', walks: [walk('2025-06-30T07:00:00.000Z', 20)] }),
      makeActivityDay({
        date: '2025-07-01',
        walks: [walk('2025-07-01T06:00:00.000Z', 15), walk('2025-07-01T18:00:00.000Z', 30)],
      }),
    ]);
    expect(walks.map((w) => [w.date, w.minutes])).toEqual([
      ['2025-07-01', 30],
      ['2025-07-01', 15],
      ['2025-06-30', 20],
    ]);
  });

  it("keeps the dog's alerts opened within the range", () => {
    const now = Date.parse('2025-07-10T12:00:00.000Z');
    const alerts = [
      makeAlert({ id: 'in', dog_id: 'rex', opened_at: '2025-07-05T12:00:00.000Z' }),
      makeAlert({ id: 'old', dog_id: 'rex', opened_at: '2025-07-01T12:00:00.000Z' }),
      makeAlert({ id: 'other', dog_id: 'bella', opened_at: '2025-07-09T12:00:00.000Z' }),
    ];
    expect(alertsInRange(alerts, 'rex', 7, now).map((a) => a.id)).toEqual(['in']);
  });

  it('writes minutes as hours and minutes', () => {
    expect(formatMinutes(45)).toBe('45 min');
    expect(formatMinutes(60)).toBe('1 h');
    expect(formatMinutes(125)).toBe('2 h 5 min');
  });
});
