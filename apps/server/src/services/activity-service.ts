import {
  ACTIVITY_DAYS_MAX,
  BASELINE_DAYS,
  heatToday,
  hourSpan,
  isVitalsStatus,
  judgeDay,
  lastLocalDates,
  levelName,
  dateIndex,
  dayStarts,
  streaks,
  suggestGoal,
  sumDays,
  vitalsRank,
  WEEK_DAYS,
  weeklyInsights,
  type ActivityHour,
  type ActivityResponse,
  type DayTotals,
  type DetectedWalk,
  type Goal,
  type InsightDay,
  type InsightsResponse,
  type User,
  wallClock,
} from '@pawguard/shared';
import type { ActivityRepository } from '../repositories/activity-repository.js';
import { DOG_NOT_FOUND, healthConditionsOf } from './dog-service.js';
import { RECENT_MS, spansOf, type ActivityJob } from './activity-job.js';
import type { Clock } from './clock.js';
import type { PetAccess } from './pet-access.js';
import { ForbiddenError, NotFoundError } from './errors.js';

/** A collar's newest reading tells the dog's level "now" for this long (judgement). */
export const LEVEL_NOW_MS = 15 * 60_000;

/** The weekly mail goes on Monday from 08:00 in the owner's zone. */
export const WEEKLY_MAIL_WEEKDAY = 1;
export const WEEKLY_MAIL_HOUR = 8;
const two = (n: number) => String(n).padStart(2, '0');

/** The Monday (YYYY-MM-DD, local) whose mail is due at `now` in `zone`, or null before 08:00. */
export function weekDue(now: number, zone: string): string | null {
  const w = wallClock(now, zone);
  const weekday = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  // Any time from Monday 08:00 to the end of Sunday: a server down on Monday morning still sends.
  const daysSinceMonday = (weekday + 6) % 7;
  if (daysSinceMonday === 0 && w.hour < WEEKLY_MAIL_HOUR) return null;
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - daysSinceMonday));
  return `${monday.getUTCFullYear()}-${two(monday.getUTCMonth() + 1)}-${two(monday.getUTCDate())}`;
}

type Dog = NonNullable<Awaited<ReturnType<ActivityRepository['dogWithOwner']>>>;

/**
 * A dog's activity per day in its owner's zone, its goal, streaks and weekly insights
 * (docs/activity.md). Days are summed from the activity job's hours; hours the job has not
 * classed yet (the last 2 hours' newest readings, from the start of the clock hour they begin
 * in) are classed on the request, not written, so today's figure moves with a walk's readings.
 */
export class ActivityService {
  constructor(
    private readonly d: {
      activity: ActivityRepository;
      job: ActivityJob;
      clock: Clock;
      pets: PetAccess;
    },
  ) {}

  /**
   * The dog, when `user` may read it: its owner, a member of its pack (docs/pack.md), or an
   * admin; anyone else is told 404.
   */
  private async readable(user: Pick<User, 'id' | 'role'>, dogId: string): Promise<Dog> {
    const dog = await this.d.activity.dogWithOwner(dogId);
    if (!dog) throw new NotFoundError(DOG_NOT_FOUND);
    if (dog.user_id === user.id || user.role === 'admin') return dog;
    if (!(await this.d.pets.dog(user.id, dogId))) throw new NotFoundError(DOG_NOT_FOUND);
    return dog;
  }

  private async goalOf(dog: Dog): Promise<Goal> {
    const suggestion = suggestGoal({
      breed: dog.breed,
      age: dog.age === null ? null : Number(dog.age),
      weight: dog.weight === null ? null : Number(dog.weight),
      body_condition: dog.body_condition === null ? null : Number(dog.body_condition),
      health_conditions: healthConditionsOf(dog.health_conditions),
    });
    const own = await this.d.activity.goal(dog.id);
    return {
      active_minutes: own ?? suggestion.minutes,
      source: own === null ? 'suggested' : 'owner',
      suggested_minutes: suggestion.minutes,
      reasons: suggestion.reasons,
    };
  }

  /**
   * The hours and walks of a dog's collars over these local dates: stored, with the hours of
   * the last 2 hours the job has not classed yet classed now.
   */
  private async load(deviceIds: string[], dates: string[], zone: string, now: number) {
    const { from, to } = hourSpan(dates, zone);
    const [stored, storedWalks, stale] = await Promise.all([
      this.d.activity.hours(deviceIds, from, to),
      this.d.activity.walks(deviceIds, from, to),
      this.d.activity.staleHours(now - RECENT_MS, deviceIds),
    ]);
    const hours = new Map<string, ActivityHour>(stored.map((h) => [`${h.deviceId} ${h.at}`, h]));
    let walks: (DetectedWalk & { deviceId: string })[] = storedWalks;
    const byDevice = new Map<string, number[]>();
    for (const s of stale)
      byDevice.set(s.device_uuid, [...(byDevice.get(s.device_uuid) ?? []), s.hour_at]);
    for (const [deviceId, staleHours] of byDevice)
      for (const span of spansOf(staleHours)) {
        const r = await this.d.job.refold(deviceId, span.from, span.to, now);
        for (const h of r.hours) hours.set(`${deviceId} ${h.at}`, h);
        walks = walks.filter(
          (w) => w.deviceId !== deviceId || w.start < r.walksFrom || w.start >= r.to,
        );
        walks.push(...r.walks.map((w) => ({ ...w, deviceId })));
      }
    walks.sort((a, b) => a.start - b.start);
    return { hours: [...hours.values()], walks };
  }

  async activity(
    user: Pick<User, 'id' | 'role'>,
    dogId: string,
    days: number,
  ): Promise<ActivityResponse> {
    const dog = await this.readable(user, dogId);
    const zone = dog.time_zone ?? 'UTC';
    const now = this.d.clock.now().getTime();
    // Streaks are counted over the longest range the call allows, whatever it shows.
    const dates = lastLocalDates(now, zone, ACTIVITY_DAYS_MAX);
    const devices = await this.d.activity.devicesOfDog(dogId);
    const goal = await this.goalOf(dog);
    const { hours, walks } = await this.load(
      devices.map((d) => d.id),
      dates,
      zone,
      now,
    );
    const starts = dayStarts(dates, zone);
    const totals = sumDays(hours, dates, zone, starts);
    const walksByDate = new Map<string, DetectedWalk[]>();
    for (const w of walks) {
      const i = dateIndex(starts, w.start);
      if (i < 0) continue;
      const list = walksByDate.get(dates[i]!);
      if (list) list.push(w);
      else walksByDate.set(dates[i]!, [w]);
    }
    const judged = totals.map((d) => ({ d, ...judgeDay(d, goal.active_minutes) }));
    const today = totals.at(-1)!;
    const levelNow = this.levelNow(devices, now);
    const heat = heatToday(today.maxHeatIndex, levelNow);
    return {
      dog_id: dog.id,
      time_zone: zone,
      goal,
      streak: streaks(judged.map((j) => ({ met: j.met, heatDay: j.heatDay, worn: j.d.worn }))),
      heat_today: {
        hot: heat.hot,
        advice: heat.advice,
        peak_heat_index_c: today.maxHeatIndex,
        level: levelNow,
      },
      days: judged.slice(-days).map(({ d, met, heatDay }) => ({
        date: d.date,
        active_minutes: d.active,
        vigorous_minutes: d.vigorous,
        heat_minutes: d.heat,
        rest_minutes: d.rest,
        sleep_minutes: d.sleep,
        worn_minutes: d.worn,
        goal_minutes: goal.active_minutes,
        met,
        heat_day: heatDay,
        peak_heat_index_c: d.maxHeatIndex,
        resting_heart_rate:
          d.restingHrCount > 0 ? Math.round((d.restingHrSum / d.restingHrCount) * 10) / 10 : null,
        level_minutes: {
          SAFE: d.levelMinutes[0],
          WARNING: d.levelMinutes[1],
          DANGER: d.levelMinutes[2],
          CRITICAL: d.levelMinutes[3],
        },
        walks: (walksByDate.get(d.date) ?? []).map((w) => ({
          start: new Date(w.start).toISOString(),
          minutes: w.minutes,
          peak_heat_index_c: w.peakHeatIndex,
          peak_level: levelName(w.peakLevel),
        })),
      })),
    };
  }

  /** The highest level of the dog's collars whose newest reading is recent; null if none is. */
  private levelNow(
    devices: {
      vitals_status: string | null;
      risk_band: string | null;
      vitals_recorded_at: string | null;
    }[],
    now: number,
  ) {
    let rank: number | null = null;
    for (const d of devices) {
      const at = d.vitals_recorded_at ? Date.parse(d.vitals_recorded_at) : NaN;
      if (!(now - at <= LEVEL_NOW_MS)) continue;
      const r = Math.max(
        isVitalsStatus(d.vitals_status) ? vitalsRank(d.vitals_status) : 0,
        isVitalsStatus(d.risk_band) ? vitalsRank(d.risk_band) : 0,
      );
      rank = Math.max(rank ?? 0, r);
    }
    return rank === null ? null : levelName(rank);
  }

  /**
   * The goal for a dog (null: back to the suggestion), set by its owner or a co-owner. Admins and
   * caregivers may not set it.
   */
  async setGoal(
    user: Pick<User, 'id' | 'role'>,
    dogId: string,
    minutes: number | null,
  ): Promise<{ goal: Goal }> {
    const dog = await this.readable(user, dogId);
    const access = dog.user_id === user.id ? 'owner' : await this.d.pets.dog(user.id, dogId);
    if (access !== 'owner' && access !== 'co_owner')
      throw new ForbiddenError("Only the pet's owner may set its activity goal");
    await this.d.activity.setGoal(dogId, minutes, this.d.clock.now().toISOString());
    return { goal: await this.goalOf(dog) };
  }

  async insights(user: Pick<User, 'id' | 'role'>, dogId: string): Promise<InsightsResponse> {
    return this.insightsOf(await this.readable(user, dogId));
  }

  /** A dog's insights by id, for the weekly mail (no caller to check). */
  async insightsFor(dogId: string): Promise<(InsightsResponse & { dog_name: string }) | null> {
    const dog = await this.d.activity.dogWithOwner(dogId);
    return dog ? { ...(await this.insightsOf(dog)), dog_name: dog.name } : null;
  }

  /** The last 7 whole local days against the 28 before them. */
  private async insightsOf(dog: Dog): Promise<InsightsResponse> {
    const zone = dog.time_zone ?? 'UTC';
    const now = this.d.clock.now().getTime();
    // 35 whole days and today, which is left out.
    const dates = lastLocalDates(now, zone, BASELINE_DAYS + WEEK_DAYS + 1).slice(0, -1);
    const devices = await this.d.activity.devicesOfDog(dog.id);
    const goal = await this.goalOf(dog);
    const { hours } = await this.load(
      devices.map((d) => d.id),
      dates,
      zone,
      now,
    );
    const days: InsightDay[] = sumDays(hours, dates, zone).map((d: DayTotals) => {
      const { met, heatDay } = judgeDay(d, goal.active_minutes);
      return {
        date: d.date,
        moving: d.active + d.heat,
        worn: d.worn,
        restingHr: d.restingHrCount > 0 ? d.restingHrSum / d.restingHrCount : null,
        met,
        heatDay,
        levelMinutes: d.levelMinutes,
      };
    });
    const r = weeklyInsights(dog.name, days);
    return {
      dog_id: dog.id,
      from: dates[BASELINE_DAYS]!,
      to: dates.at(-1)!,
      insights: r.insights,
      flags: r.flags,
    };
  }

  weeklySetting(userId: string): Promise<boolean> {
    return this.d.activity.weeklyInsights(userId);
  }

  async setWeeklySetting(
    user: Pick<User, 'id' | 'time_zone'>,
    on: boolean,
  ): Promise<{ weekly_insights: boolean }> {
    const now = this.d.clock.now();
    await this.d.activity.setWeeklyInsights(
      user.id,
      on,
      weekDue(now.getTime(), user.time_zone ?? 'UTC'),
      now.toISOString(),
    );
    return { weekly_insights: on };
  }
}
