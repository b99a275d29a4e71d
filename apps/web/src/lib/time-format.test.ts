import { describe, expect, it } from 'vitest';
import { DATE, DATE_TIME, formatInZone, TIME, TIME_SECONDS, timeZoneNote } from './time-format';

// 07:00:05 UTC on 1 July 2025: 12:30 in Kolkata, 03:00 in New York, 19:00 in Auckland.
const AT = '2025-07-01T07:00:05.000Z';

describe('formatInZone', () => {
  it('shows one instant as the clock reads in each zone', () => {
    expect(formatInZone(AT, 'Asia/Kolkata', TIME)).toMatch(/12:30/);
    expect(formatInZone(AT, 'America/New_York', TIME)).toMatch(/03:00/);
    expect(formatInZone(Date.parse(AT), 'America/New_York', TIME_SECONDS)).toMatch(/03:00:05/);
  });

  it('takes the date from the zone too', () => {
    const late = '2025-07-01T20:00:00.000Z';
    expect(formatInZone(late, 'America/New_York', DATE)).toMatch(/Jul 1, 2025/);
    expect(formatInZone(late, 'Pacific/Auckland', DATE)).toMatch(/Jul 2, 2025/);
    expect(formatInZone(late, 'Pacific/Auckland', DATE_TIME)).toMatch(/Jul 2, 2025.*8:00/);
  });

  it('shows a dash for no time', () => {
    expect(formatInZone(null, 'UTC', DATE)).toBe('—');
    expect(formatInZone('', 'UTC', DATE)).toBe('—');
    expect(formatInZone('not a date', 'UTC', DATE)).toBe('—');
  });

  it("falls back to the browser's zone for one it does not know", () => {
    expect(formatInZone(AT, 'Mars/Olympus_Mons', TIME)).toBe(formatInZone(AT, undefined, TIME));
  });
});

describe('timeZoneNote', () => {
  it('names the zone, with its short name, only when it is not the browser’s', () => {
    expect(timeZoneNote('Europe/Berlin', 'Europe/Berlin')).toBeNull();
    expect(timeZoneNote('Europe/Berlin', null)).toBeNull();
    expect(timeZoneNote('America/New_York', 'Europe/Berlin', Date.parse(AT))).toBe(
      'Times in America/New_York (EDT)',
    );
    expect(timeZoneNote('UTC', 'Europe/Berlin')).toBe('Times in UTC');
  });
});
