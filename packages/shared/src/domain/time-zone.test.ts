import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, formatZonedTime, zonedTimeToUtc } from './time-zone.js';

describe('canonicalTimeZone', () => {
  it.each([
    ['America/New_York', 'America/New_York'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['america/new_york', 'America/New_York'],
  ])('knows %s as %s', (name, canonical) => expect(canonicalTimeZone(name)).toBe(canonical));

  it.each([
    'Mars/Olympus_Mons',
    '+05:00',
    'GMT+5:30',
    '',
    ' ',
    'Europe/',
    '../etc/passwd',
    'x'.repeat(65),
  ])('refuses %j', (name) => expect(canonicalTimeZone(name)).toBeNull());
});

describe('zonedTimeToUtc', () => {
  it('finds the instant a wall clock reads a time, in summer and in winter', () => {
    expect(new Date(zonedTimeToUtc('America/New_York', 2026, 7, 1, 8)).toISOString()).toBe(
      '2026-07-01T12:00:00.000Z',
    );
    expect(new Date(zonedTimeToUtc('America/New_York', 2026, 1, 15, 8)).toISOString()).toBe(
      '2026-01-15T13:00:00.000Z',
    );
    // A day that runs over the month, as Date.UTC takes it.
    expect(new Date(zonedTimeToUtc('Europe/Berlin', 2026, 6, 31, 8)).toISOString()).toBe(
      '2026-07-01T06:00:00.000Z',
    );
  });
});

describe('formatZonedTime', () => {
  it('names the local time with the zone abbreviation', () => {
    expect(formatZonedTime('2026-07-01T14:05:00.000Z', 'America/New_York')).toBe(
      '2026-07-01 10:05 EDT',
    );
    expect(formatZonedTime('2026-01-15T14:05:00.000Z', 'America/New_York')).toBe(
      '2026-01-15 09:05 EST',
    );
    // Past midnight there: the local date, not the UTC one.
    expect(formatZonedTime('2026-07-01T02:30:00.000Z', 'America/Los_Angeles')).toBe(
      '2026-06-30 19:30 PDT',
    );
  });

  it('gives UTC while the zone is unknown', () => {
    expect(formatZonedTime('2026-07-01T14:05:00.000Z', null)).toBe('2026-07-01 14:05 UTC');
  });
});
