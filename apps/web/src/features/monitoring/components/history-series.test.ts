import { describe, expect, it } from 'vitest';
import { makeHistory } from '@/testing/devices';
import { wallClock } from '@pawguard/shared';
import {
  formatBucketTime,
  formatTick,
  hasReadings,
  seriesSummary,
  timeTicks,
  toChartPoints,
  valueAxis,
} from './history-series';

describe('toChartPoints', () => {
  it('draws temperature in the preferred unit, humidity and heart rate as they are', () => {
    const points = toChartPoints(
      makeHistory('1h', [
        { t: '2025-07-01T11:58:00.000Z', temperature: 30, humidity: 40.04, heart_rate: 88 },
      ]),
      'F',
    );
    expect(points).toEqual([
      {
        t: Date.parse('2025-07-01T11:58:00.000Z'),
        count: 1,
        temperature: 86,
        temperatureRange: [86, 86],
        humidity: 40,
        humidityRange: [40, 40],
        heartRate: 88,
        heartRateRange: [88, 88],
      },
    ]);
    const [celsius] = toChartPoints(
      makeHistory('1h', [{ t: '2025-07-01T11:58:00.000Z', temperature: 30 }]),
      'C',
    );
    expect(celsius).toMatchObject({ temperature: 30, temperatureRange: [30, 30] });
  });

  it('breaks the lines where the collar was silent for over 2 minutes, instead of bridging it', () => {
    const points = toChartPoints(
      makeHistory('1h', [
        { t: '2025-07-01T11:00:00.000Z', temperature: 20 },
        { t: '2025-07-01T11:02:00.000Z', temperature: 20 },
        { t: '2025-07-01T11:10:00.000Z', temperature: 21 },
      ]),
      'F',
    );
    expect(points.map((p) => p.temperature)).toEqual([68, 68, null, 69.8]);
    expect(points[2]?.t).toBe(Date.parse('2025-07-01T11:03:00.000Z'));
  });

  it('keeps the line whole across empty buckets narrower than that (sparse reporting)', () => {
    const points = toChartPoints(
      makeHistory(
        '1h',
        [
          { t: '2025-07-01T11:00:00.000Z', temperature: 20 },
          { t: '2025-07-01T11:00:16.000Z', temperature: 20 },
        ],
        { bucket_seconds: 8 },
      ),
      'F',
    );
    expect(points).toHaveLength(2);
  });
});

describe('seriesSummary', () => {
  it('gives the lowest, the average weighted by readings and the highest', () => {
    const history = makeHistory('24h', [
      { t: '2025-07-01T10:00:00.000Z', temperature: 20, count: 1 },
      { t: '2025-07-01T11:00:00.000Z', temperature: 30, count: 3 },
    ]);
    expect(seriesSummary(history, 'temperature')).toEqual({ min: 20, avg: 27.5, max: 30 });
    expect(seriesSummary(history, 'heart_rate')).toBeNull();
  });
});

describe('hasReadings', () => {
  it('is false for a range with no readings', () => {
    expect(hasReadings(makeHistory('7d', []))).toBe(false);
    expect(hasReadings(makeHistory('7d', [{ t: '2025-07-01T10:00:00.000Z', count: 0 }]))).toBe(
      false,
    );
  });
});

describe('timeTicks', () => {
  it("marks every 10 minutes of the hour, every 4 hours of the day, every midnight of the week, in the account's zone", () => {
    // Kolkata is 5 h 30 min ahead of UTC: its round hours are not UTC's (nor, likely, the machine's).
    const zone = 'Asia/Kolkata';
    const to = Date.parse('2025-07-01T07:04:00Z'); // 12:34 in Kolkata
    const hour = timeTicks(to - 3_600_000, to, '1h', zone);
    expect(hour).toHaveLength(6);
    for (const t of hour) expect(wallClock(t, zone).minute % 10).toBe(0);
    const day = timeTicks(to - 86_400_000, to, '24h', zone);
    expect(day).toHaveLength(6);
    for (const t of day) {
      expect(wallClock(t, zone).hour % 4).toBe(0);
      expect(wallClock(t, zone).minute).toBe(0);
    }
    const days = timeTicks(to - 7 * 86_400_000, to, '7d', zone);
    expect(days).toHaveLength(7);
    for (const t of days) expect(wallClock(t, zone)).toMatchObject({ hour: 0, minute: 0 });
  });

  it('keeps days at midnight across a change to summer time', () => {
    const zone = 'Europe/Berlin';
    const to = Date.parse('2025-04-02T10:00:00Z'); // the clocks went forward on 30 March
    const days = timeTicks(to - 7 * 86_400_000, to, '7d', zone);
    expect(days).toHaveLength(7);
    for (const t of days) expect(wallClock(t, zone)).toMatchObject({ hour: 0, minute: 0 });
  });
});

describe('formatTick and formatBucketTime', () => {
  it("name a bucket's time in the account's zone", () => {
    const t = Date.parse('2025-07-01T07:00:00Z');
    expect(formatTick(t, '24h', 'Asia/Kolkata')).toMatch(/12:30/);
    expect(formatTick(t, '24h', 'America/New_York')).toMatch(/03:00/);
    expect(formatBucketTime(t + 10_000, '1h', 10, 'UTC')).toMatch(/07:00:10/);
  });
});

describe('valueAxis', () => {
  const hot = toChartPoints(
    makeHistory('1h', [
      { t: '2025-07-01T11:50:00.000Z', temperature: 30, humidity: 40 }, // 86 °F
      { t: '2025-07-01T11:55:00.000Z', temperature: 38, humidity: 41 }, // 100.4 °F
    ]),
    'F',
  );

  it('keeps the warning line off the bottom of the chart when the readings are all above it', () => {
    // Warning 85 °F and critical 105 °F: both strictly inside the axis, at round ticks.
    const { domain, ticks } = valueAxis(hot, 'temperatureRange', [85, 105])!;
    expect(domain).toEqual([80, 110]);
    expect(ticks).toEqual([80, 90, 100, 110]);
  });

  it('follows the readings when there are no lines, and is null with no readings', () => {
    const { domain, ticks } = valueAxis(hot, 'humidityRange')!;
    expect(domain[0]).toBeLessThan(40);
    expect(domain[1]).toBeGreaterThan(41);
    expect(ticks.length).toBeLessThanOrEqual(6);
    expect(ticks[0]).toBe(domain[0]);
    expect(ticks.at(-1)).toBe(domain[1]);
    expect(valueAxis([], 'temperatureRange', [85, 105])).toBeNull();
  });

  it('never goes past what the series can be: humidity stays within 0–100 %', () => {
    const humid = toChartPoints(
      makeHistory('1h', [
        { t: '2025-07-01T11:50:00.000Z', temperature: 30, humidity: 0 },
        { t: '2025-07-01T11:55:00.000Z', temperature: 30, humidity: 100 },
      ]),
      'F',
    );
    const { domain, ticks } = valueAxis(humid, 'humidityRange', [], [0, 100])!;
    expect(domain).toEqual([0, 100]);
    expect(ticks).toEqual([0, 20, 40, 60, 80, 100]);
  });
});
