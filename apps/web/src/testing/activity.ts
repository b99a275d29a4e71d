import type {
  ActivityDay,
  ActivityResponse,
  InsightFlag,
  InsightsResponse,
} from '@pawguard/shared';

/** One day of activity (a quiet, worn day below the goal unless told otherwise). */
export function makeActivityDay(overrides: Partial<ActivityDay> = {}): ActivityDay {
  return {
    date: '2025-07-01',
    active_minutes: 25,
    vigorous_minutes: 5,
    heat_minutes: 0,
    rest_minutes: 300,
    sleep_minutes: 540,
    resting_heart_rate: 72,
    level_minutes: { SAFE: 1_000, WARNING: 0, DANGER: 0, CRITICAL: 0 },
    worn_minutes: 1_000,
    peak_heat_index_c: 24,
    goal_minutes: 60,
    met: false,
    heat_day: false,
    walks: [],
    ...overrides,
  };
}

/** `count` days ending on 2025-07-01, oldest first; `last` overrides today. */
export function makeActivityDays(count: number, last: Partial<ActivityDay> = {}): ActivityDay[] {
  const end = Date.parse('2025-07-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(end - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return makeActivityDay({ date, ...(i === count - 1 ? last : {}) });
  });
}

export function makeActivity(
  dogId: string,
  overrides: Partial<ActivityResponse> = {},
): ActivityResponse {
  return {
    dog_id: dogId,
    time_zone: 'Europe/London',
    goal: {
      active_minutes: 60,
      source: 'suggested',
      suggested_minutes: 60,
      reasons: ['Beagle: a hound, 60 minutes a day (breed group)'],
    },
    streak: { current: 3, best: 5 },
    heat_today: { hot: false, advice: null, peak_heat_index_c: 22.5, level: 'SAFE' },
    days: makeActivityDays(7),
    ...overrides,
  };
}

export const HOT_ADVICE = 'Hot today: keep walks under 20 minutes, before 9:00 or after 19:00';

export const NOT_A_DIAGNOSIS = 'This is not a diagnosis. If you are worried, ask your vet.';

export function makeFlag(overrides: Partial<InsightFlag> = {}): InsightFlag {
  return {
    kind: 'activity_down',
    text: "Biscuit's activity has been at least 35 % below the usual 55 minutes a day for 3 days (30, 28, 33 minutes).",
    evidence: { baseline_minutes: 55, down_percent: 35 },
    note: NOT_A_DIAGNOSIS,
    ...overrides,
  };
}

export function makeInsights(
  dogId: string,
  overrides: Partial<InsightsResponse> = {},
): InsightsResponse {
  return {
    dog_id: dogId,
    from: '2025-06-24',
    to: '2025-06-30',
    insights: [
      {
        kind: 'goal',
        text: 'Goal met on 4 of 7 days the collar was worn this week.',
        numbers: { met_days: 4, judged_days: 7 },
      },
      {
        kind: 'activity',
        text: 'Biscuit averaged 42 active minutes a day this week, against 55 over the 4 weeks before (-24 %).',
        numbers: { week_avg_minutes: 42, baseline_minutes: 55 },
      },
    ],
    flags: [],
    ...overrides,
  };
}
