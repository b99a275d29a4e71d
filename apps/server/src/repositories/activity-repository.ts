import { sql, type Kysely, type Transaction } from 'kysely';
import type { ActivityHour, ActivityMinute, DetectedWalk } from '@pawguard/shared';
import type { ActivityHoursTable, ActivityWalksTable, Database } from '../db/schema.js';
import { toBool } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;
/** Rows per insert statement (16 columns each: far below either dialect's limit). */
const WRITE = 100;
const HOUR_MS = 3_600_000;

const toHourRow = (deviceId: string, h: ActivityHour): ActivityHoursTable => ({
  device_uuid: deviceId,
  hour_at: h.at,
  source_count: h.sourceCount,
  active: h.active,
  vigorous: h.vigorous,
  heat: h.heat,
  still: h.still,
  worn: h.worn,
  still_hr_sum: h.stillHrSum,
  still_hr_count: h.stillHrCount,
  safe_minutes: h.levelMinutes[0],
  warning_minutes: h.levelMinutes[1],
  danger_minutes: h.levelMinutes[2],
  critical_minutes: h.levelMinutes[3],
  max_heat_index: h.maxHeatIndex,
  max_level: h.maxLevel,
});

export const fromHourRow = (r: ActivityHoursTable): ActivityHour => ({
  at: Number(r.hour_at),
  sourceCount: Number(r.source_count),
  active: Number(r.active),
  vigorous: Number(r.vigorous),
  heat: Number(r.heat),
  still: Number(r.still),
  worn: Number(r.worn),
  stillHrSum: Number(r.still_hr_sum),
  stillHrCount: Number(r.still_hr_count),
  levelMinutes: [
    Number(r.safe_minutes),
    Number(r.warning_minutes),
    Number(r.danger_minutes),
    Number(r.critical_minutes),
  ],
  maxHeatIndex: r.max_heat_index === null ? null : Number(r.max_heat_index),
  maxLevel: Number(r.max_level),
});

export const fromWalkRow = (r: ActivityWalksTable): DetectedWalk => ({
  start: Number(r.start_at),
  minutes: Number(r.minutes),
  activeMinutes: Number(r.active_minutes),
  peakHeatIndex: r.peak_heat_index === null ? null : Number(r.peak_heat_index),
  peakLevel: Number(r.peak_level),
});

const HOUR_COLUMNS = [
  'source_count',
  'active',
  'vigorous',
  'heat',
  'still',
  'worn',
  'still_hr_sum',
  'still_hr_count',
  'safe_minutes',
  'warning_minutes',
  'danger_minutes',
  'critical_minutes',
  'max_heat_index',
  'max_level',
] as const;

/** Activity per collar and hour, walks, dogs' goals and the weekly mail's setting (017). */
export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Whether the collar reported any heart rate in the hours of [from, to) (hour rollups: at most 170 rows). */
  async heartRateSince(deviceId: string, from: number, to: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('reading_rollups')
      .select('bucket_at')
      .where('device_uuid', '=', deviceId)
      .where('bucket_seconds', '=', 3600)
      .where('bucket_at', '>=', Math.floor(from / 3_600_000) * 3_600_000)
      .where('bucket_at', '<', to)
      .where('heart_rate_count', '>', 0)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** What classing needs of one collar's minute rollups with starts in [from, to), oldest first. */
  async minutes(deviceId: string, from: number, to: number): Promise<ActivityMinute[]> {
    const rows = await this.db
      .selectFrom('reading_rollups')
      .select([
        'bucket_at',
        'count',
        'activity_sum',
        'activity_count',
        'heart_rate_sum',
        'heart_rate_count',
        'temperature_max',
        'humidity_max',
        'level_max',
      ])
      .where('device_uuid', '=', deviceId)
      .where('bucket_seconds', '=', 60)
      .where('bucket_at', '>=', from)
      .where('bucket_at', '<', to)
      .orderBy('bucket_at')
      .execute();
    return rows.map((r) => ({
      at: Number(r.bucket_at),
      count: Number(r.count),
      activity:
        Number(r.activity_count) > 0 ? Number(r.activity_sum) / Number(r.activity_count) : null,
      heartRateSum: Number(r.heart_rate_sum),
      heartRateCount: Number(r.heart_rate_count),
      temperatureMax: r.temperature_max === null ? null : Number(r.temperature_max),
      humidityMax: r.humidity_max === null ? null : Number(r.humidity_max),
      levelMax: Number(r.level_max),
    }));
  }

  /**
   * Hours reaching past `since` (the hour holding it, and every later one) whose hour rollup
   * holds other readings than the activity summed for them, or none yet: what the activity job
   * must class again. Only these collars when given; in (collar, hour) order after `after`, at
   * most `limit`.
   */
  async staleHours(
    since: number,
    deviceIds?: readonly string[],
    page: { after?: { deviceId: string; at: number }; limit?: number } = {},
  ): Promise<{ device_uuid: string; hour_at: number }[]> {
    if (deviceIds && deviceIds.length === 0) return [];
    let q = this.db
      .selectFrom('reading_rollups as r')
      .leftJoin('activity_hours as a', (j) =>
        j.onRef('a.device_uuid', '=', 'r.device_uuid').onRef('a.hour_at', '=', 'r.bucket_at'),
      )
      .select(['r.device_uuid', 'r.bucket_at'])
      .where('r.bucket_seconds', '=', 3600)
      // From the start of the hour holding `since`: "the last 2 hours" at 10:01 are 08:00 on,
      // or an upload's minutes from 08:31 would wait for the backlog pass.
      .where('r.bucket_at', '>=', Math.floor(since / HOUR_MS) * HOUR_MS)
      .where((eb) =>
        eb.or([eb('a.device_uuid', 'is', null), eb('a.source_count', '<>', eb.ref('r.count'))]),
      );
    if (deviceIds) q = q.where('r.device_uuid', 'in', deviceIds);
    const after = page.after;
    if (after)
      q = q.where((eb) =>
        eb.or([
          eb('r.device_uuid', '>', after.deviceId),
          eb.and([eb('r.device_uuid', '=', after.deviceId), eb('r.bucket_at', '>', after.at)]),
        ]),
      );
    let ordered = q.orderBy('r.device_uuid').orderBy('r.bucket_at');
    if (page.limit) ordered = ordered.limit(page.limit);
    const rows = await ordered.execute();
    return rows.map((r) => ({ device_uuid: r.device_uuid, hour_at: Number(r.bucket_at) }));
  }

  /** Writes these hours of one collar whole, over what was stored for them. */
  async upsertHours(deviceId: string, hours: readonly ActivityHour[], ex: Executor = this.db) {
    for (let at = 0; at < hours.length; at += WRITE)
      await ex
        .insertInto('activity_hours')
        .values(hours.slice(at, at + WRITE).map((h) => toHourRow(deviceId, h)))
        .onConflict((oc) =>
          oc
            .columns(['device_uuid', 'hour_at'])
            .doUpdateSet((eb) =>
              Object.fromEntries(HOUR_COLUMNS.map((c) => [c, eb.ref(`excluded.${c}`)])),
            ),
        )
        .execute();
  }

  /** One collar's walks with starts in [from, to) replaced by these. */
  async replaceWalks(
    deviceId: string,
    from: number,
    to: number,
    walks: readonly DetectedWalk[],
    ex: Executor = this.db,
  ): Promise<void> {
    await ex
      .deleteFrom('activity_walks')
      .where('device_uuid', '=', deviceId)
      .where('start_at', '>=', from)
      .where('start_at', '<', to)
      .execute();
    if (walks.length)
      await ex
        .insertInto('activity_walks')
        .values(
          walks.map((w) => ({
            device_uuid: deviceId,
            start_at: w.start,
            minutes: w.minutes,
            active_minutes: w.activeMinutes,
            peak_heat_index: w.peakHeatIndex,
            peak_level: w.peakLevel,
          })),
        )
        .onConflict((oc) => oc.columns(['device_uuid', 'start_at']).doNothing())
        .execute();
  }

  /** The activity hours of these collars with starts in [from, to). */
  async hours(
    deviceIds: readonly string[],
    from: number,
    to: number,
  ): Promise<(ActivityHour & { deviceId: string })[]> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('activity_hours')
      .selectAll()
      .where('device_uuid', 'in', deviceIds)
      .where('hour_at', '>=', from)
      .where('hour_at', '<', to)
      .orderBy('hour_at')
      .execute();
    return rows.map((r) => ({ ...fromHourRow(r), deviceId: r.device_uuid }));
  }

  /** The walks of these collars that start in [from, to), oldest first. */
  async walks(
    deviceIds: readonly string[],
    from: number,
    to: number,
  ): Promise<(DetectedWalk & { deviceId: string })[]> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('activity_walks')
      .selectAll()
      .where('device_uuid', 'in', deviceIds)
      .where('start_at', '>=', from)
      .where('start_at', '<', to)
      .orderBy('start_at')
      .execute();
    return rows.map((r) => ({ ...fromWalkRow(r), deviceId: r.device_uuid }));
  }

  /** A dog's profile with its owner's time zone, or undefined. */
  dogWithOwner(dogId: string) {
    return this.db
      .selectFrom('dogs as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select([
        'd.id',
        'd.user_id',
        'd.name',
        'd.breed',
        'd.age',
        'd.weight',
        'd.body_condition',
        'd.health_conditions',
        'u.time_zone',
      ])
      .where('d.id', '=', dogId)
      .executeTakeFirst();
  }

  /** An owner's dogs, oldest first. */
  dogsOf(userId: string) {
    return this.db
      .selectFrom('dogs')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The collars a dog wears (normally one), with their newest reading's verdicts. */
  devicesOfDog(dogId: string) {
    return this.db
      .selectFrom('devices')
      .select(['id', 'vitals_status', 'risk_band', 'vitals_recorded_at'])
      .where('dog_id', '=', dogId)
      .orderBy('id')
      .execute();
  }

  /** The owner's goal for a dog (minutes a day), null when none (the suggestion). */
  async goal(dogId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('activity_goals')
      .select('active_minutes')
      .where('dog_id', '=', dogId)
      .executeTakeFirst();
    return row ? Number(row.active_minutes) : null;
  }

  async setGoal(dogId: string, minutes: number | null, now: string): Promise<void> {
    if (minutes === null) {
      await this.db.deleteFrom('activity_goals').where('dog_id', '=', dogId).execute();
      return;
    }
    await this.db
      .insertInto('activity_goals')
      .values({ dog_id: dogId, active_minutes: minutes, updated_at: now })
      .onConflict((oc) =>
        oc.column('dog_id').doUpdateSet({ active_minutes: minutes, updated_at: now }),
      )
      .execute();
  }

  async weeklyInsights(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('insight_mail_settings')
      .select('weekly_insights')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toBool(row.weekly_insights) : false;
  }

  /**
   * Turns the weekly mail on or off. Turned on, `currentWeek` counts as mailed: the first mail
   * is the next Monday's, not one at once for a week under way.
   */
  async setWeeklyInsights(
    userId: string,
    on: boolean,
    currentWeek: string | null,
    now: string,
  ): Promise<void> {
    const values = { weekly_insights: on ? 1 : 0, updated_at: now };
    const week = on ? { last_week: currentWeek } : {};
    await this.db
      .insertInto('insight_mail_settings')
      .values({ user_id: userId, ...values, last_week: currentWeek })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, ...week }))
      .execute();
  }

  /** Accounts with the weekly mail on, with their zone and the last week mailed. */
  weeklyRecipients() {
    return this.db
      .selectFrom('insight_mail_settings as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['u.id', 'u.email', 'u.name', 'u.time_zone', 's.last_week'])
      .where('s.weekly_insights', '=', sql<boolean>`${sql.lit(true)}`)
      .orderBy('u.id')
      .execute();
  }

  async markWeekMailed(userId: string, week: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable('insight_mail_settings')
      .set({ last_week: week })
      .where('user_id', '=', userId)
      .execute();
  }

  /** Deletes up to `batch` activity hours and walks older than `cutoff`; answers how many. */
  async pruneOlderThan(cutoff: number, batch: number): Promise<number> {
    const oldHours = this.db
      .selectFrom('activity_hours')
      .select(['device_uuid', 'hour_at'])
      .where('hour_at', '<', cutoff)
      .orderBy('hour_at')
      .limit(batch);
    const h = await this.db
      .deleteFrom('activity_hours')
      .where(sql<boolean>`(device_uuid, hour_at) in (${oldHours})`)
      .executeTakeFirst();
    const oldWalks = this.db
      .selectFrom('activity_walks')
      .select(['device_uuid', 'start_at'])
      .where('start_at', '<', cutoff)
      .orderBy('start_at')
      .limit(batch);
    const w = await this.db
      .deleteFrom('activity_walks')
      .where(sql<boolean>`(device_uuid, start_at) in (${oldWalks})`)
      .executeTakeFirst();
    return Number(h.numDeletedRows) + Number(w.numDeletedRows);
  }
}
