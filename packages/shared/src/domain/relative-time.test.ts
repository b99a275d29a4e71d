import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time.js';

const now = Date.parse('2026-06-01T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('relative time', () => {
  it("says 'Never' when there is no time", () => {
    expect(formatRelativeTime(null, now)).toBe('Never');
    expect(formatRelativeTime(undefined, now)).toBe('Never');
    expect(formatRelativeTime('not a date', now)).toBe('Never');
  });
  it("says 'Just now' under ten seconds, and for a clock slightly ahead", () => {
    expect(formatRelativeTime(ago(9_999), now)).toBe('Just now');
    expect(formatRelativeTime(ago(-3_000), now)).toBe('Just now');
  });
  it('counts seconds, minutes, hours and days', () => {
    expect(formatRelativeTime(ago(10_000), now)).toBe('10s ago');
    expect(formatRelativeTime(ago(59_000), now)).toBe('59s ago');
    expect(formatRelativeTime(ago(60_000), now)).toBe('1m ago');
    expect(formatRelativeTime(ago(3_600_000), now)).toBe('1h ago');
    expect(formatRelativeTime(ago(49 * 3_600_000), now)).toBe('2d ago');
  });
  it('accepts epoch milliseconds and dates', () => {
    expect(formatRelativeTime(now - 120_000, now)).toBe('2m ago');
    expect(formatRelativeTime(new Date(now - 5_000), now)).toBe('Just now');
  });
});
