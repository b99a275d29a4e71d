import { describe, expect, it } from 'vitest';
import {
  classifyMinute,
  dateIndex,
  dayStarts,
  localDateHour,
  detectWalks,
  foldMinutes,
  HEAT_ADVICE,
  heatToday,
  hourSpan,
  lastLocalDates,
  NOT_A_DIAGNOSIS,
  streaks,
  suggestGoal,
  sumDays,
  weeklyInsights,
  type ActivityMinute,
  type InsightDay,
} from './activity.js';

const M = 60_000;
const H = 3_600_000;
const T0 = Date.UTC(2026, 5, 1, 10, 0); // 2026-06-01 10:00 UTC

const minute = (at: number, activity: number | null, extra: Partial<ActivityMinute> = {}) => ({
  at,
  count: 4,
  activity,
  heartRateSum: 4 * 80,
  heartRateCount: 4,
  temperatureMax: 22,
  humidityMax: 40,
  levelMax: 0,
  ...extra,
});
/** Minutes from T0 + `from` minutes, one per activity value. */
const run = (from: number, levels: (number | null)[], extra: Partial<ActivityMinute> = {}) =>
  levels.map((a, i) => minute(T0 + (from + i) * M, a, extra));

describe('classifyMinute', () => {
  it.each([
    [null, 'unknown'],
    [0, 'still'],
    [9.9, 'still'],
    [10, 'light'],
    [29.9, 'light'],
    [30, 'active'],
    [59.9, 'active'],
    [60, 'vigorous'],
    [100, 'vigorous'],
  ] as const)('an average activity of %s is %s', (avg, cls) => {
    expect(classifyMinute(avg)).toBe(cls);
  });
});

describe('foldMinutes', () => {
  it('counts active, vigorous, still and worn minutes per UTC hour', () => {
    const hours = foldMinutes([
      ...run(0, [70, 40, 40, 5, 5, 20, null]),
      ...run(60, [50]), // the next hour
    ]);
    expect([...hours.keys()]).toEqual([T0, T0 + H]);
    expect(hours.get(T0)).toMatchObject({
      active: 3,
      vigorous: 1,
      heat: 0,
      still: 2,
      worn: 7,
      sourceCount: 28,
      stillHrSum: 640,
      stillHrCount: 8,
      levelMinutes: [7, 0, 0, 0],
      maxLevel: 0,
    });
    expect(hours.get(T0 + H)).toMatchObject({ active: 1, worn: 1 });
  });

  it.each([
    { name: 'no heart rate and no movement: off (charger, sill)', activity: 0, off: true },
    { name: 'no heart rate, activity unknown: off', activity: null, off: true },
    { name: 'no heart rate but moving: worn', activity: 40, off: false },
  ])('a collar that reports heart rate, $name', ({ activity, off }) => {
    const offMinutes = run(0, Array(30).fill(activity), {
      heartRateSum: 0,
      heartRateCount: 0,
      temperatureMax: 38, // a sunny windowsill
      humidityMax: 40,
    });
    const worn = run(30, [5, 5], { temperatureMax: 24 });
    const h = foldMinutes([...offMinutes, ...worn], { reportsHeartRate: true }).get(T0)!;
    if (off) {
      expect(h).toMatchObject({ worn: 2, still: 2, active: 0, levelMinutes: [2, 0, 0, 0] });
      expect(h.maxHeatIndex).toBeLessThan(27);
    } else expect(h).toMatchObject({ worn: 32, active: 30 });
    expect(h.sourceCount).toBe(32 * 4); // the hour's readings, off or not
  });

  it('counts a minute without heart rate as worn when the collar never reports one', () => {
    const h = foldMinutes(run(0, [0, 0], { heartRateSum: 0, heartRateCount: 0 })).get(T0)!;
    expect(h).toMatchObject({ worn: 2, still: 2 });
  });

  it('counts an active minute above SAFE as heat, never as active or vigorous', () => {
    const h = foldMinutes(run(0, [80, 40, 40], { levelMax: 1 })).get(T0)!;
    expect(h).toMatchObject({ active: 0, vigorous: 0, heat: 3, levelMinutes: [0, 3, 0, 0] });
    expect(h.maxLevel).toBe(1);
  });

  it('keeps the highest heat index of the hour from the minutes’ highest temperature and humidity', () => {
    const h = foldMinutes([
      minute(T0, 40, { temperatureMax: 30, humidityMax: 60 }),
      minute(T0 + M, 40, { temperatureMax: 25, humidityMax: 60 }),
    ]).get(T0)!;
    expect(h.maxHeatIndex).toBeGreaterThan(30);
    expect(h.maxHeatIndex).toBeLessThan(36);
  });
});

describe('detectWalks', () => {
  it.each([
    { name: '10 active minutes are a walk', levels: Array(10).fill(40), walks: [[0, 10, 10]] },
    { name: '9 are not', levels: Array(9).fill(40), walks: [] },
    {
      name: 'a gap of 2 non-active minutes stays inside the walk',
      levels: [...Array(5).fill(40), 5, 5, ...Array(5).fill(40)],
      walks: [[0, 12, 10]],
    },
    {
      name: 'a gap of 3 ends it (two bouts of 6, no walk)',
      levels: [...Array(6).fill(40), 5, 5, 5, ...Array(6).fill(40)],
      walks: [],
    },
    {
      name: 'two walks apart',
      levels: [...Array(10).fill(70), ...Array(20).fill(0), ...Array(15).fill(35)],
      walks: [
        [0, 10, 10],
        [30, 15, 15],
      ],
    },
    {
      name: 'light minutes are not active',
      levels: Array(20).fill(25),
      walks: [],
    },
  ])('$name', ({ levels, walks }) => {
    expect(
      detectWalks(run(0, levels)).map((w) => [(w.start - T0) / M, w.minutes, w.activeMinutes]),
    ).toEqual(walks);
  });

  it('counts missing minutes as gaps', () => {
    const minutes = [...run(0, Array(5).fill(40)), ...run(8, Array(5).fill(40))];
    expect(detectWalks(minutes)).toEqual([]);
    const close = [...run(0, Array(5).fill(40)), ...run(7, Array(5).fill(40))];
    expect(detectWalks(close).map((w) => w.minutes)).toEqual([12]);
  });

  it('gives a walk’s peak heat index and level', () => {
    const minutes = run(0, Array(12).fill(50));
    minutes[4] = { ...minutes[4]!, temperatureMax: 33, humidityMax: 50, levelMax: 2 };
    const [w] = detectWalks(minutes);
    expect(w!.peakLevel).toBe(2);
    expect(w!.peakHeatIndex).toBeGreaterThan(35);
  });
});

describe('sumDays in the owner’s zone', () => {
  const hour = (at: number, still = 0, active = 0) => ({
    ...foldMinutes([]).get(0),
    at,
    sourceCount: 1,
    active,
    vigorous: 0,
    heat: 0,
    still,
    worn: still + active,
    stillHrSum: still * 70,
    stillHrCount: still,
    levelMinutes: [still + active, 0, 0, 0] as [number, number, number, number],
    maxHeatIndex: null,
    maxLevel: 0,
  });

  it('puts each hour in the local date its start falls on; night still minutes are sleep', () => {
    const zone = 'America/New_York'; // UTC−4 in June
    const hours = [
      hour(Date.UTC(2026, 5, 2, 3), 60), // 23:00 on 1 June: sleep
      hour(Date.UTC(2026, 5, 2, 4), 60), // 00:00 on 2 June: sleep
      hour(Date.UTC(2026, 5, 2, 14), 30, 20), // 10:00 on 2 June: rest and active
    ];
    const [d1, d2] = sumDays(hours, ['2026-06-01', '2026-06-02'], zone);
    expect(d1).toMatchObject({ date: '2026-06-01', sleep: 60, rest: 0, active: 0 });
    expect(d2).toMatchObject({ sleep: 60, rest: 30, active: 20, restingHrCount: 30 });
  });

  it.each([
    ['America/New_York', '2026-03-08', 23],
    ['America/New_York', '2026-11-01', 25],
    ['Europe/Berlin', '2026-03-29', 23],
    ['America/New_York', '2026-06-01', 24],
  ])('in %s, %s has %i hours', (zone, date, n) => {
    const { from, to } = hourSpan([date], zone);
    const hours = [];
    for (let at = from; at < to; at += H) hours.push(hour(at, 0, 1));
    expect(sumDays(hours, [date], zone)[0]!.active).toBe(n);
  });

  it('cuts a zone with a half-hour offset at the hour', () => {
    const zone = 'Asia/Kolkata'; // UTC+5:30: 18:30 UTC is local midnight
    const days = sumDays(
      [hour(Date.UTC(2026, 5, 1, 18), 0, 5), hour(Date.UTC(2026, 5, 1, 19), 0, 7)],
      ['2026-06-01', '2026-06-02'],
      zone,
    );
    // 18:00 UTC is 23:30 on 1 June; 19:00 UTC is 00:30 on 2 June.
    expect(days.map((d) => d.active)).toEqual([5, 7]);
  });

  it.each(['America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'])(
    'in %s, finds every hour’s date and local hour as the zone’s own clock does, for a year',
    (zone) => {
      const dates = lastLocalDates(Date.UTC(2027, 0, 10), zone, 400);
      const starts = dayStarts(dates, zone);
      const { from, to } = hourSpan(dates, zone);
      for (let at = from; at < to; at += H) {
        const i = dateIndex(starts, at);
        const local = localDateHour(at, zone);
        if (i < 0) expect(dates).not.toContain(local.date);
        else expect(dates[i], new Date(at).toISOString()).toBe(local.date);
      }
    },
  );

  it('lists the last dates in the zone, today last', () => {
    const now = Date.UTC(2026, 2, 1, 3); // 1 March 03:00 UTC: still 28 February in New York
    expect(lastLocalDates(now, 'America/New_York', 3)).toEqual([
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
    ]);
  });
});

describe('streaks', () => {
  const d = (met: boolean, heatDay = false, worn = 600) => ({ met, heatDay, worn });
  it.each([
    { name: 'three met days', days: [d(true), d(true), d(true)], want: { current: 3, best: 3 } },
    {
      name: 'a missed day breaks it',
      days: [d(true), d(true), d(false), d(true)],
      want: { current: 1, best: 2 },
    },
    {
      name: 'a heat day neither counts nor breaks it',
      days: [d(true), d(false, true), d(true)],
      want: { current: 2, best: 2 },
    },
    {
      name: 'a day the collar was hardly worn is skipped',
      days: [d(true), d(false, false, 60), d(true)],
      want: { current: 2, best: 2 },
    },
    {
      name: 'today not yet met does not break it',
      days: [d(true), d(true), d(false)],
      want: { current: 2, best: 2 },
    },
    { name: 'nothing met', days: [d(false), d(false)], want: { current: 0, best: 0 } },
  ])('$name', ({ days, want }) => {
    expect(streaks(days)).toEqual(want);
  });
});

describe('heatToday', () => {
  it.each([
    [null, null, false],
    [26.9, 'SAFE', false],
    [27, 'SAFE', true],
    [20, 'WARNING', true],
  ] as const)('heat index %s and level %s: hot %s', (hi, level, hot) => {
    expect(heatToday(hi, level)).toEqual({ hot, advice: hot ? HEAT_ADVICE : null });
  });
});

describe('suggestGoal', () => {
  const p = (over: Partial<Parameters<typeof suggestGoal>[0]>) => ({
    breed: null,
    age: 4,
    weight: 40,
    body_condition: 5,
    health_conditions: [],
    ...over,
  });
  it.each([
    { name: 'unknown breed', profile: p({}), minutes: 60 },
    { name: 'a Border Collie (herding)', profile: p({ breed: 'Border Collie' }), minutes: 90 },
    { name: 'a Labrador (sporting)', profile: p({ breed: 'lab' }), minutes: 90 },
    { name: 'a Beagle (hound)', profile: p({ breed: 'Beagle' }), minutes: 60 },
    { name: 'a Chihuahua (toy)', profile: p({ breed: 'Chihuahua' }), minutes: 40 },
    { name: 'a Boxer (working, flat-faced)', profile: p({ breed: 'Boxer' }), minutes: 40 },
    { name: 'a puppy (6 months assumed)', profile: p({ breed: 'Beagle', age: 0 }), minutes: 30 },
    { name: 'a senior Labrador', profile: p({ breed: 'Labrador', age: 9 }), minutes: 70 },
    {
      name: 'a giant breed is senior at 6',
      profile: p({ breed: 'Great Dane', age: 6, weight: 140 }),
      minutes: 70,
    },
    { name: 'a heavy unknown dog is giant', profile: p({ age: 6, weight: 110 }), minutes: 45 },
    { name: 'overweight', profile: p({ breed: 'Beagle', body_condition: 7 }), minutes: 75 },
    {
      name: 'a heart condition halves it',
      profile: p({ breed: 'Beagle', health_conditions: ['heart'] }),
      minutes: 30,
    },
    {
      name: 'an airway condition caps it at 30',
      profile: p({ breed: 'Border Collie', health_conditions: ['airway'] }),
      minutes: 30,
    },
    {
      name: 'a flat-faced overweight dog stays at 40',
      profile: p({ breed: 'French Bulldog', body_condition: 8 }),
      minutes: 40,
    },
  ])('$name: $minutes minutes', ({ profile, minutes }) => {
    const s = suggestGoal(profile);
    expect(s.minutes).toBe(minutes);
    expect(s.reasons.length).toBeGreaterThan(0);
    for (const r of s.reasons) expect(r).not.toContain('\n');
  });
});

describe('weeklyInsights', () => {
  const day = (i: number, over: Partial<InsightDay> = {}): InsightDay => ({
    date: `d${i}`,
    moving: 60,
    worn: 1200,
    restingHr: 80,
    met: true,
    heatDay: false,
    levelMinutes: [1200, 0, 0, 0],
    ...over,
  });
  const days = (week: Partial<InsightDay>[], base: Partial<InsightDay> = {}) => [
    ...Array.from({ length: 28 }, (_, i) => day(i, base)),
    ...week.map((w, i) => day(28 + i, w)),
  ];
  const flat = Array<Partial<InsightDay>>(7).fill({});

  it('compares the week’s activity with the 4 weeks before, naming both numbers', () => {
    const r = weeklyInsights('Biscuit', days(Array(7).fill({ moving: 45 })));
    const a = r.insights.find((i) => i.kind === 'activity')!;
    expect(a.text).toBe(
      'Biscuit averaged 45 active minutes a day this week, against 60 over the 4 weeks before (-25 %).',
    );
    expect(a.numbers).toMatchObject({ week_avg_minutes: 45, baseline_minutes: 60 });
    expect(r.flags).toEqual([]); // 25 % down is under the 30 % of a flag
  });

  it.each([
    { name: '30 % down on each of the last 3 days', last: [42, 42, 42], flagged: true },
    { name: '29 % down on one of them', last: [42, 43, 42], flagged: false },
    { name: 'only 2 days down', last: [60, 30, 30], flagged: false },
  ])('flags activity down: $name → $flagged', ({ last, flagged }) => {
    const week = [{}, {}, {}, {}, ...last.map((moving) => ({ moving }))];
    const r = weeklyInsights('Biscuit', days(week));
    const f = r.flags.find((x) => x.kind === 'activity_down');
    expect(Boolean(f)).toBe(flagged);
    if (f) {
      expect(f.note).toBe(NOT_A_DIAGNOSIS);
      expect(f.evidence).toMatchObject({ baseline_minutes: 60, day_1_minutes: 42 });
      expect(f.text).toContain('60 minutes');
    }
  });

  it.each([90, 170, 180])(
    'flags exactly 30 %% down against a baseline of %i (no floating-point miss)',
    (base) => {
      const down = (base * 7) / 10;
      const week = [{}, {}, {}, {}, ...Array(3).fill({ moving: down })];
      const r = weeklyInsights('Biscuit', days(week, { moving: base }));
      expect(r.flags.map((f) => f.kind)).toEqual(['activity_down']);
    },
  );

  it('does not flag activity down when one of the days was a heat day (kept in)', () => {
    const week = [{}, {}, {}, {}, { moving: 10 }, { moving: 10, heatDay: true }, { moving: 10 }];
    expect(weeklyInsights('Biscuit', days(week)).flags).toEqual([]);
  });

  it('does not flag activity on days the collar was hardly worn', () => {
    const week = [{}, {}, {}, {}, ...Array(3).fill({ moving: 0, worn: 30 })];
    expect(weeklyInsights('Biscuit', days(week)).flags).toEqual([]);
  });

  it.each([
    { name: '15 % up on each of the last 3 days', last: [92, 95, 92], flagged: true },
    { name: '14 % on one of them', last: [92, 91, 95], flagged: false },
    { name: 'a day without a resting heart rate', last: [92, null, 95], flagged: false },
  ])('flags resting heart rate up: $name → $flagged', ({ last, flagged }) => {
    const week = [{}, {}, {}, {}, ...last.map((restingHr) => ({ restingHr }))];
    const r = weeklyInsights('Biscuit', days(week));
    const f = r.flags.find((x) => x.kind === 'resting_heart_rate_up');
    expect(Boolean(f)).toBe(flagged);
    if (f) {
      expect(f.note).toBe(NOT_A_DIAGNOSIS);
      expect(f.text).toContain('80 bpm');
    }
  });

  it('needs 7 judged days for a baseline', () => {
    const r = weeklyInsights('Biscuit', days(flat, { worn: 0, restingHr: null }));
    expect(r.insights.find((i) => i.kind === 'activity')!.numbers.baseline_minutes).toBeNull();
    expect(r.flags).toEqual([]);
  });

  it('sums heat exposure and goal days', () => {
    const week = [
      { levelMinutes: [1000, 30, 5, 0] as [number, number, number, number] },
      { met: false, heatDay: true },
      { met: false },
      {},
      {},
      {},
      {},
    ];
    const r = weeklyInsights('Biscuit', days(week));
    expect(r.insights.find((i) => i.kind === 'heat')!.text).toBe(
      'Biscuit spent 35 minutes above Safe this week: 30 at Warning, 5 at Danger, 0 at Critical.',
    );
    expect(r.insights.find((i) => i.kind === 'goal')!.text).toBe(
      'Goal met on 5 of 7 days the collar was worn this week (1 hot day kept in).',
    );
  });

  it('counts the goal met only on days worn long enough to judge', () => {
    // A goal of 60 minutes met on a day the collar was worn 90 minutes: not a judged day.
    const week = [{ met: true, worn: 90 }, {}, {}, {}, {}, {}, {}];
    const r = weeklyInsights('Biscuit', days(week));
    expect(r.insights.find((i) => i.kind === 'goal')!.text).toBe(
      'Goal met on 6 of 6 days the collar was worn this week.',
    );
  });
});
