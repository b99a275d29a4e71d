import { z } from 'zod';

/**
 * Activity, goals and insights of one dog (GET /api/dogs/{id}/activity, PUT …/goal,
 * GET …/insights): computed from its collar's rollups, per day in the owner's time zone.
 * How minutes are classed, walks found, goals suggested and insights flagged:
 * docs/activity.md and decision 0043.
 */

/** Days an activity call may ask for. */
export const ACTIVITY_DAYS_MIN = 1;
export const ACTIVITY_DAYS_MAX = 90;
/** The goal an owner may set (minutes of activity a day). */
export const GOAL_MINUTES_MIN = 5;
export const GOAL_MINUTES_MAX = 300;

export const activityQuerySchema = z.strictObject({
  days: z.coerce
    .number({ error: 'days must be a whole number between 1 and 90' })
    .int({ error: 'days must be a whole number between 1 and 90' })
    .min(ACTIVITY_DAYS_MIN, { error: 'days must be a whole number between 1 and 90' })
    .max(ACTIVITY_DAYS_MAX, { error: 'days must be a whole number between 1 and 90' })
    .default(7),
});
export type ActivityQuery = z.infer<typeof activityQuerySchema>;

/** A walk: a sustained bout of activity. */
export const walkSchema = z.object({
  /** When it began (ISO-8601 UTC). */
  start: z.string(),
  minutes: z.number().int(),
  /** The highest heat index the collar measured during it (°C), null without readings of it. */
  peak_heat_index_c: z.number().nullable(),
  /** The highest level the dog reached during it. */
  peak_level: z.enum(['SAFE', 'WARNING', 'DANGER', 'CRITICAL']),
});
export type Walk = z.infer<typeof walkSchema>;

export const activityDaySchema = z.object({
  /** The day in the owner's time zone (YYYY-MM-DD). */
  date: z.string(),
  /** Minutes active at a level of SAFE: what counts toward the goal. */
  active_minutes: z.number().int(),
  /** Of those, minutes of vigorous activity (running, play). */
  vigorous_minutes: z.number().int(),
  /** Minutes active while the dog's level was above SAFE: never counted toward the goal. */
  heat_minutes: z.number().int(),
  /** Minutes of rest in the day (still, awake hours). */
  rest_minutes: z.number().int(),
  /** Minutes of night sleep (still, night hours). */
  sleep_minutes: z.number().int(),
  /** The average heart rate of the day's still minutes in waking hours (bpm), null without any. */
  resting_heart_rate: z.number().nullable(),
  /** Minutes the collar was worn at each of the dog's levels. */
  level_minutes: z.object({
    SAFE: z.number().int(),
    WARNING: z.number().int(),
    DANGER: z.number().int(),
    CRITICAL: z.number().int(),
  }),
  /** Minutes the collar reported at all (a day with few is not judged). */
  worn_minutes: z.number().int(),
  /** The goal that day (minutes). */
  goal_minutes: z.number().int(),
  /** The goal met (active_minutes ≥ goal_minutes). */
  met: z.boolean(),
  /** A hot day on which the dog was kept in: the goal not met, and the streak not broken. */
  heat_day: z.boolean(),
  walks: z.array(walkSchema),
});
export type ActivityDay = z.infer<typeof activityDaySchema>;

export const goalSchema = z.object({
  /** The goal in force: the owner's, or else the suggestion. */
  active_minutes: z.number().int(),
  source: z.enum(['owner', 'suggested']),
  /** What PawGuard suggests for this dog, and why (each reason one line). */
  suggested_minutes: z.number().int(),
  reasons: z.array(z.string()),
});
export type Goal = z.infer<typeof goalSchema>;

export const activityResponseSchema = z.object({
  dog_id: z.string(),
  /** The zone the days are cut in (the owner's). */
  time_zone: z.string(),
  goal: goalSchema,
  /** Days in a row the goal was met up to today (a heat day neither counts nor breaks it). */
  streak: z.object({ current: z.number().int(), best: z.number().int() }),
  /** Today's heat, from the collar's own recent heat index and the dog's level. */
  heat_today: z.object({
    hot: z.boolean(),
    /** "Hot today: keep walks under 20 minutes, before 9:00 or after 19:00" when hot. */
    advice: z.string().nullable(),
    /** The evidence: the highest heat index today (°C) and the level now. */
    peak_heat_index_c: z.number().nullable(),
    level: z.enum(['SAFE', 'WARNING', 'DANGER', 'CRITICAL']).nullable(),
  }),
  /** Oldest first, ending today. */
  days: z.array(activityDaySchema),
});
export type ActivityResponse = z.infer<typeof activityResponseSchema>;

/** PUT /api/dogs/{id}/goal: minutes a day, or null to go back to the suggestion. */
export const goalInputSchema = z.strictObject({
  active_minutes: z
    .number({ error: 'active_minutes must be a whole number of minutes, or null' })
    .int({ error: 'active_minutes must be a whole number of minutes, or null' })
    .min(GOAL_MINUTES_MIN, {
      error: `active_minutes must be between ${GOAL_MINUTES_MIN} and ${GOAL_MINUTES_MAX}`,
    })
    .max(GOAL_MINUTES_MAX, {
      error: `active_minutes must be between ${GOAL_MINUTES_MIN} and ${GOAL_MINUTES_MAX}`,
    })
    .nullable(),
});
export type GoalInput = z.infer<typeof goalInputSchema>;
export const goalResponseSchema = z.object({ goal: goalSchema });

export const insightSchema = z.object({
  kind: z.enum(['activity', 'resting_heart_rate', 'heat', 'goal']),
  /** One sentence an owner reads, naming the numbers it came from. */
  text: z.string(),
  /** The numbers behind it, by name (e.g. { week_avg_minutes: 42, baseline_minutes: 55 }). */
  numbers: z.record(z.string(), z.number().nullable()),
});
export type Insight = z.infer<typeof insightSchema>;

export const insightFlagSchema = z.object({
  kind: z.enum(['activity_down', 'resting_heart_rate_up']),
  /** Gentle wording with the evidence, e.g. "Activity has been 35 % below … for 3 days." */
  text: z.string(),
  evidence: z.record(z.string(), z.number().nullable()),
  /** Always said: "This is not a diagnosis. If you are worried, ask your vet." */
  note: z.string(),
});
export type InsightFlag = z.infer<typeof insightFlagSchema>;

export const insightsResponseSchema = z.object({
  dog_id: z.string(),
  /** The week summed up: the last 7 whole days in the owner's zone. */
  from: z.string(),
  to: z.string(),
  insights: z.array(insightSchema),
  flags: z.array(insightFlagSchema),
});
export type InsightsResponse = z.infer<typeof insightsResponseSchema>;
