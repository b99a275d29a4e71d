import { describe, expect, it } from 'vitest';
import { isFresh, isOnline } from './freshness.js';
import { batteryLevel } from './battery.js';

const now = Date.parse('2026-06-01T12:00:00Z');

describe('freshness', () => {
  it('a reading is fresh while younger than 2 minutes', () => {
    expect(isFresh(now - 119_999, now)).toBe(true);
    expect(isFresh(now - 120_000, now)).toBe(false);
    expect(isFresh(null, now)).toBe(false);
  });
  it('a device is Online when last seen within 5 minutes', () => {
    expect(isOnline(new Date(now - 300_000).toISOString(), now)).toBe(true);
    expect(isOnline(new Date(now - 300_001).toISOString(), now)).toBe(false);
    expect(isOnline(undefined, now)).toBe(false);
  });
});

describe('battery bar', () => {
  it('is green over 50, yellow over 20, red otherwise', () => {
    expect(batteryLevel(51)).toBe('good');
    expect(batteryLevel(50)).toBe('low');
    expect(batteryLevel(21)).toBe('low');
    expect(batteryLevel(20)).toBe('critical');
    expect(batteryLevel(0)).toBe('critical');
  });
});
