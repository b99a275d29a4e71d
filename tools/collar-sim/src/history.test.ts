import { describe, expect, it } from 'vitest';
import { historyReadings } from './history.js';

const NOW = Date.parse('2026-07-08T10:17:30Z');
const DAY = 86_400_000;

describe('historyReadings', () => {
  it('is a week of a reading a minute within what a server takes, oldest first', () => {
    const rs = historyReadings(0, 7, NOW, 42);
    expect(rs.length).toBeGreaterThan(7 * 1440 * 0.8); // gaps: out of reach, charging
    expect(rs[0]!.timestamp).toBeGreaterThan(NOW - 7 * DAY);
    // Over an hour before now: the server takes none of it for the collar's present.
    expect(rs.at(-1)!.timestamp).toBeLessThan(NOW - 60 * 60_000);
    expect(rs.at(-1)!.timestamp).toBeGreaterThan(NOW - 70 * 60_000);
    for (let i = 1; i < rs.length; i++)
      expect(rs[i]!.timestamp).toBeGreaterThan(rs[i - 1]!.timestamp);
  });

  it('has walks, rest and nights: activity from near still to brisk every day', () => {
    const rs = historyReadings(1, 7, NOW, 7);
    for (let d = 1; d < 7; d++) {
      const day = rs.filter(
        (r) => r.timestamp >= NOW - d * DAY && r.timestamp < NOW - (d - 1) * DAY,
      );
      const activity = day.map((r) => r.activity_level).filter((a): a is number => a !== undefined);
      expect(activity.filter((a) => a >= 30).length).toBeGreaterThan(20); // walks and play
      expect(activity.filter((a) => a < 10).length).toBeGreaterThan(400); // rest and the night
    }
  });

  it("lays the nights on the owner's nights, in the owner's time zone", () => {
    // Where the dog is still between 01:00 and 04:00 local, most of all.
    const stillAt = (zone: string, offsetHours: number) => {
      const rs = historyReadings(0, 7, NOW, 3, zone);
      const hourOf = (t: number) => new Date(t + offsetHours * 3_600_000).getUTCHours();
      const night = rs.filter((r) => hourOf(r.timestamp) >= 1 && hourOf(r.timestamp) < 4);
      return night.filter((r) => (r.activity_level ?? 0) < 10).length / night.length;
    };
    // July: New York is UTC−4, Tokyo UTC+9 (no daylight saving).
    expect(stillAt('America/New_York', -4)).toBeGreaterThan(0.9);
    expect(stillAt('Asia/Tokyo', 9)).toBeGreaterThan(0.9);
  });

  it('is nothing for 0 days, and another dog for another collar', () => {
    expect(historyReadings(0, 0, NOW, 1)).toEqual([]);
    const a = historyReadings(0, 2, NOW, 1).map((r) => r.activity_level);
    const b = historyReadings(1, 2, NOW, 1).map((r) => r.activity_level);
    expect(a).not.toEqual(b);
  });
});
