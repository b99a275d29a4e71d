import { describe, expect, it } from 'vitest';
import { openingHistoryRange } from './history-range.js';

const NOW = Date.parse('2026-07-01T12:00:00.000Z');
const minutesAgo = (m: number) => new Date(NOW - m * 60_000).toISOString();
const day = (...minutes: number[]) => ({
  buckets: [
    { t: minutesAgo(1400), count: 0, temperature: null, humidity: null, heart_rate: null },
    ...minutes.map((m) => ({
      t: minutesAgo(m),
      count: 3,
      temperature: null,
      humidity: null,
      heart_rate: null,
    })),
  ],
});

describe('the range History opens on', () => {
  it('is the last hour for a collar whose readings all came in the last hour', () => {
    expect(openingHistoryRange(day(40, 10, 1), minutesAgo(1), NOW)).toBe('1h');
    expect(openingHistoryRange(day(60), minutesAgo(60), NOW)).toBe('1h');
  });

  it('is 24 hours once the day holds readings older than an hour', () => {
    expect(openingHistoryRange(day(61, 5), minutesAgo(5), NOW)).toBe('24h');
    expect(openingHistoryRange(day(1380, 5), minutesAgo(5), NOW)).toBe('24h');
  });

  it('is 7 days when the readings are older than a day, and 24 hours when there are none', () => {
    expect(openingHistoryRange(day(), minutesAgo(3 * 1440), NOW)).toBe('7d');
    expect(openingHistoryRange(day(), minutesAgo(8 * 1440), NOW)).toBe('24h');
    expect(openingHistoryRange(day(), null, NOW)).toBe('24h');
  });

  it('is 24 hours while the day’s history is unknown', () => {
    expect(openingHistoryRange(undefined, minutesAgo(1), NOW)).toBe('24h');
  });
});
