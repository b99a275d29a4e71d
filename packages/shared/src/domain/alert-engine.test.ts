import { describe, expect, it } from 'vitest';
import {
  batteryStep,
  dailyWindowEnd,
  heatStep,
  dogLevel,
  higherLevel,
  levelSetBy,
  hourlyWindowEnd,
  offlineCutoff,
  offNewsToTell,
  ownNewsSince,
  mailCooldownAllows,
  nextPeaks,
  OFFLINE_AFTER_MS,
  readingsThatCount,
  presentHorizon,
  type HeatStep,
  type MailedNews,
} from './alert-engine.js';
import { vitalsStatus, type VitalsStatus } from './vitals-status.js';
import type { AlertLevel } from '../schemas/alert.js';
import { fahrenheitToCelsius } from './units.js';

describe('heatStep', () => {
  it.each<[string, AlertLevel | null, VitalsStatus, HeatStep]>([
    ['a safe reading with nothing open', null, 'SAFE', { kind: 'none' }],
    ['the first reading above SAFE opens', null, 'WARNING', { kind: 'open', level: 'WARNING' }],
    [
      'a first reading straight at CRITICAL opens at CRITICAL',
      null,
      'CRITICAL',
      { kind: 'open', level: 'CRITICAL' },
    ],
    [
      'WARNING → DANGER escalates',
      'WARNING',
      'DANGER',
      { kind: 'escalate', from: 'WARNING', to: 'DANGER' },
    ],
    [
      'DANGER → CRITICAL escalates',
      'DANGER',
      'CRITICAL',
      { kind: 'escalate', from: 'DANGER', to: 'CRITICAL' },
    ],
    [
      'WARNING → CRITICAL escalates in one step',
      'WARNING',
      'CRITICAL',
      { kind: 'escalate', from: 'WARNING', to: 'CRITICAL' },
    ],
    ['the same level holds', 'DANGER', 'DANGER', { kind: 'hold' }],
    ['a lower level never de-escalates', 'CRITICAL', 'WARNING', { kind: 'hold' }],
    ['SAFE again resolves', 'CRITICAL', 'SAFE', { kind: 'resolve' }],
  ])('%s', (_, open, level, step) => {
    expect(heatStep(open ? { level: open } : null, level)).toEqual(step);
  });

  // The status carries the 1 °F hysteresis; the alert follows it through a whole episode.
  it('follows an episode through the hysteresis at each boundary (warning 85 °F, critical 105 °F)', () => {
    const thresholds = { warningF: 85, criticalF: 105 };
    let status: VitalsStatus | null = null;
    let open: { level: AlertLevel } | null = null;
    const steps: string[] = [];
    // Dry air, so the heat index stays near the temperature.
    for (const f of [84.9, 85, 84.5, 84, 104.9, 105, 104.1, 104, 90, 84.1, 84]) {
      status = vitalsStatus(
        { temperature: fahrenheitToCelsius(f), humidity: 10 },
        thresholds,
        status,
      );
      const step = heatStep(open, status);
      steps.push(`${f}:${status}:${step.kind}`);
      if (step.kind === 'open') open = { level: step.level };
      if (step.kind === 'escalate') open = { level: step.to };
      if (step.kind === 'resolve') open = null;
    }
    expect(steps).toEqual([
      '84.9:SAFE:none',
      '85:WARNING:open', // at the threshold: enters
      '84.5:WARNING:hold', // within 1 °F below: stays
      '84:SAFE:resolve', // 1 °F below: leaves, and the alert resolves
      '104.9:WARNING:open',
      '105:CRITICAL:escalate',
      '104.1:CRITICAL:hold',
      '104:WARNING:hold', // the status falls, the alert never de-escalates
      '90:WARNING:hold',
      '84.1:WARNING:hold',
      '84:SAFE:resolve',
    ]);
  });
});

describe('higherLevel', () => {
  it.each<[VitalsStatus, VitalsStatus | null, VitalsStatus]>([
    ['SAFE', null, 'SAFE'],
    ['SAFE', 'DANGER', 'DANGER'],
    ['CRITICAL', 'WARNING', 'CRITICAL'],
    ['WARNING', 'WARNING', 'WARNING'],
  ])('%s and %s → %s', (a, b, out) => expect(higherLevel(a, b)).toBe(out));
});

describe("the dog's one level (DESIGN §3)", () => {
  it.each<[VitalsStatus | null, VitalsStatus | null, VitalsStatus | null, string | null]>([
    ['SAFE', 'WARNING', 'WARNING', 'model'],
    ['CRITICAL', 'SAFE', 'CRITICAL', 'thresholds'],
    ['DANGER', 'DANGER', 'DANGER', 'thresholds'],
    ['WARNING', null, 'WARNING', 'thresholds'],
    // Nothing judged by the thresholds yet: no level, whatever the model says.
    [null, 'CRITICAL', null, null],
  ])('thresholds %s, model %s → %s, set by %s', (thresholds, model, level, setBy) => {
    expect(dogLevel(thresholds, model)).toBe(level);
    if (thresholds) expect(levelSetBy(thresholds, model)).toBe(setBy);
  });
});

describe('nextPeaks', () => {
  it('keeps the highest temperature and heat index seen while open', () => {
    let peaks = { temperatureC: null as number | null, heatIndexF: null as number | null };
    for (const r of [
      { temperatureC: 38, heatIndexF: 110 },
      { temperatureC: 41, heatIndexF: 105 },
      { temperatureC: 39, heatIndexF: 112 },
    ])
      peaks = nextPeaks(peaks, r);
    expect(peaks).toEqual({ temperatureC: 41, heatIndexF: 112 });
  });
});

describe('batteryStep: once per discharge, re-armed at 30 %', () => {
  it('opens below 20 % only while armed, and re-arms at 30 % or more', () => {
    let armed = true;
    const out: string[] = [];
    for (const b of [50, 20, 19, 15, 10, 25, 29, 18, 30, 19, null, 45]) {
      const step = batteryStep(armed, b);
      out.push(`${b}:${step.kind}`);
      if (step.kind === 'open') armed = false;
      if (step.kind === 'rearm') armed = true;
    }
    expect(out).toEqual([
      '50:none',
      '20:none', // 20 is not below 20
      '19:open',
      '15:none', // the same discharge
      '10:none',
      '25:none', // charging, not yet 30
      '29:none',
      '18:none', // still the same discharge
      '30:rearm',
      '19:open', // a new discharge
      'null:none',
      '45:rearm',
    ]);
  });
});

describe('offlineCutoff: 10 minutes of silence, counted from when the server listens', () => {
  const now = new Date('2026-07-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const isOffline = (lastSeen: Date, listeningSince: Date) => {
    const cutoff = offlineCutoff(now, listeningSince);
    return cutoff !== null && lastSeen.getTime() <= cutoff.getTime();
  };
  it.each<[string, Date, Date, boolean]>([
    ['heard 9 min 59 s ago', ago(OFFLINE_AFTER_MS - 1000), ago(3_600_000), false],
    ['silent exactly 10 minutes', ago(OFFLINE_AFTER_MS), ago(3_600_000), true],
    ['silent an hour', ago(3_600_000), ago(7_200_000), true],
    ['silent an hour, but the server is back 5 minutes', ago(3_600_000), ago(300_000), false],
    [
      'silent an hour, the server back exactly 10 minutes',
      ago(3_600_000),
      ago(OFFLINE_AFTER_MS),
      true,
    ],
  ])('%s → %s', (_, lastSeen, since, offline) => expect(isOffline(lastSeen, since)).toBe(offline));
});

describe('presentHorizon: a clock that ran ahead never silences the readings after it', () => {
  it.each<[string, string | null, string | null, string | null]>([
    ['no reading yet', null, null, null],
    [
      'a reading timed before its arrival',
      '2026-07-01T12:00:00Z',
      '2026-07-01T12:00:02Z',
      '2026-07-01T12:00:00Z',
    ],
    [
      'a reading timed 4 minutes ahead',
      '2026-07-01T12:04:00Z',
      '2026-07-01T12:00:00Z',
      '2026-07-01T12:00:00Z',
    ],
  ])('%s → %s', (_, recorded, seen, horizon) =>
    expect(presentHorizon(recorded, seen)).toBe(horizon),
  );
});

describe('readingsThatCount: a backlog is history (decision 0023)', () => {
  const at = (iso: string) => ({ t: Date.parse(iso), iso });
  const time = (r: { t: number }) => r.t;
  it('keeps only readings newer than the latest before the batch, oldest first', () => {
    const batch = [
      at('2026-07-01T12:03:00Z'),
      at('2026-07-01T11:00:00Z'), // older than the latest: history
      at('2026-07-01T12:00:00Z'), // the latest itself, sent again
      at('2026-07-01T12:01:00Z'),
    ];
    expect(readingsThatCount('2026-07-01T12:00:00.000Z', batch, time).map((r) => r.iso)).toEqual([
      '2026-07-01T12:01:00Z',
      '2026-07-01T12:03:00Z',
    ]);
  });
  it('counts every reading of a collar that has none yet', () => {
    const batch = [at('2026-07-01T12:01:00Z'), at('2026-07-01T11:00:00Z')];
    expect(readingsThatCount(null, batch, time)).toHaveLength(2);
  });
  it('counts none of a batch that is all older than the latest', () => {
    const batch = [at('2026-07-01T09:00:00Z'), at('2026-07-01T10:00:00Z')];
    expect(readingsThatCount('2026-07-01T12:00:00Z', batch, time)).toEqual([]);
  });
});

describe("ownNewsSince and offNewsToTell: a collar's own news is of its present (decision 0023)", () => {
  const NOW = Date.parse('2026-07-01T12:00:00Z');
  const MIN = 60_000;
  it.each([
    ['a live reading', NOW, NOW - 10 * MIN],
    ['a clock 15 minutes behind', NOW - 15 * MIN, NOW - 25 * MIN],
    ['a clock 3 minutes ahead: now is the bound', NOW + 3 * MIN, NOW - 10 * MIN],
    ['no reading that counts', undefined, NOW - 10 * MIN],
    ['a batch ending 59 minutes ago', NOW - 59 * MIN, NOW - 69 * MIN],
  ] as const)('%s: the present begins 10 minutes before', (_, newestAt, since) => {
    expect(ownNewsSince(newestAt, NOW)).toBe(since);
  });

  it('a batch ending more than an hour ago (a list or a slice of a backlog) has no present', () => {
    expect(ownNewsSince(NOW - 61 * MIN, NOW)).toBeNull();
    expect(ownNewsSince(NOW - 7 * 24 * 60 * MIN, NOW)).toBeNull();
  });

  const since = NOW - 10 * MIN;
  it.each([
    ['no spell began', null, null, null],
    ['a spell that began in the present: told where it began', NOW - 2 * MIN, null, NOW - 2 * MIN],
    ['a spell that began in the history and is over: never told', NOW - 60 * MIN, null, null],
    ['a spell that began in the history and goes on: told now', NOW - 60 * MIN, NOW, NOW],
  ] as const)('%s', (_, newsAt, newestOffAt, told) => {
    expect(offNewsToTell(newsAt, since, newestOffAt)).toBe(told);
  });
});

describe('mailCooldownAllows: one mail per device per 15 minutes, unless the news is worse', () => {
  const heat = (level: AlertLevel): MailedNews => ({ type: 'heat', level });
  const other = (type: 'offline' | 'low_battery'): MailedNews => ({ type, level: null });
  it.each<[string, MailedNews & { kind: 'opened' | 'escalated' }, MailedNews[], boolean]>([
    ['the first mail of the device', { ...heat('WARNING'), kind: 'opened' }, [], true],
    [
      'a heat episode that ends and starts again at the same level',
      { ...heat('WARNING'), kind: 'opened' },
      [heat('WARNING')],
      false,
    ],
    [
      'a reopening lower than what was mailed',
      { ...heat('WARNING'), kind: 'opened' },
      [heat('CRITICAL')],
      false,
    ],
    [
      'a reopening worse than what was mailed',
      { ...heat('CRITICAL'), kind: 'opened' },
      [heat('WARNING')],
      true,
    ],
    [
      'an escalation, however recent the last mail',
      { ...heat('DANGER'), kind: 'escalated' },
      [heat('WARNING'), heat('DANGER')],
      true,
    ],
    [
      'heat after a low-battery mail',
      { ...heat('CRITICAL'), kind: 'opened' },
      [other('low_battery')],
      true,
    ],
    [
      'offline again after an offline mail',
      { ...other('offline'), kind: 'opened' },
      [other('offline')],
      false,
    ],
    [
      'low battery after a heat mail',
      { ...other('low_battery'), kind: 'opened' },
      [heat('CRITICAL')],
      true,
    ],
  ])('%s → %s', (_, news, recent, allowed) =>
    expect(mailCooldownAllows(news, recent)).toBe(allowed),
  );
});

describe('digest windows', () => {
  it.each([
    ['2026-07-01T12:00:00.000Z', '2026-07-01T12:00:00.000Z'],
    ['2026-07-01T12:00:00.001Z', '2026-07-01T12:00:00.000Z'],
    ['2026-07-01T12:59:59.999Z', '2026-07-01T12:00:00.000Z'],
    ['2026-07-01T00:30:00.000Z', '2026-07-01T00:00:00.000Z'],
  ])('hourly at %s: the window ended at %s (minute 0 UTC)', (now, end) =>
    expect(hourlyWindowEnd(new Date(now)).toISOString()).toBe(end),
  );
  it.each([
    ['2026-07-01T08:00:00.000Z', '2026-07-01T08:00:00.000Z'],
    ['2026-07-01T07:59:59.999Z', '2026-06-30T08:00:00.000Z'],
    ['2026-07-01T23:00:00.000Z', '2026-07-01T08:00:00.000Z'],
    ['2026-03-01T03:00:00.000Z', '2026-02-28T08:00:00.000Z'],
    ['2027-01-01T06:00:00.000Z', '2026-12-31T08:00:00.000Z'],
  ])('daily at %s: the window ended at %s (08:00 UTC)', (now, end) =>
    expect(dailyWindowEnd(new Date(now)).toISOString()).toBe(end),
  );
  it.each([
    // New York: 08:00 EDT is 12:00 UTC in summer, 08:00 EST 13:00 UTC in winter.
    ['America/New_York', '2026-07-01T12:00:00.000Z', '2026-07-01T12:00:00.000Z'],
    ['America/New_York', '2026-07-01T11:59:59.999Z', '2026-06-30T12:00:00.000Z'],
    ['America/New_York', '2026-01-15T12:30:00.000Z', '2026-01-14T13:00:00.000Z'],
    ['America/New_York', '2026-01-15T13:00:00.000Z', '2026-01-15T13:00:00.000Z'],
    // The days summer time starts and ends (2026-03-08, 2026-11-01): 08:00 is after both.
    ['America/New_York', '2026-03-08T12:00:00.000Z', '2026-03-08T12:00:00.000Z'],
    ['America/New_York', '2026-11-01T12:59:00.000Z', '2026-10-31T12:00:00.000Z'],
    ['America/New_York', '2026-11-01T13:00:00.000Z', '2026-11-01T13:00:00.000Z'],
    // East of UTC the local morning is the previous UTC evening; half-hour zones too.
    ['Pacific/Auckland', '2026-07-01T20:00:00.000Z', '2026-07-01T20:00:00.000Z'],
    ['Pacific/Auckland', '2026-07-01T19:59:00.000Z', '2026-06-30T20:00:00.000Z'],
    ['Asia/Kolkata', '2026-07-01T02:30:00.000Z', '2026-07-01T02:30:00.000Z'],
  ])('daily in %s at %s: the window ended at %s (08:00 local)', (zone, now, end) =>
    expect(dailyWindowEnd(new Date(now), zone).toISOString()).toBe(end),
  );
});
