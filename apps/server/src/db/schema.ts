import type { ColumnType, Generated } from 'kysely';
import type { AlertLevel, AlertType, TemperatureUnit, WeightUnit } from '@pawguard/shared';

/**
 * Table types. Times are ISO-8601 UTC text in both dialects; booleans are written as 1/0
 * (PostgreSQL accepts those for boolean columns) and read back through toBool().
 */
export type Bool = boolean | number;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: 'admin' | 'user';
  email_verified_at: string | null;
  /** IANA time zone for mail times and the daily digest; null while unknown (UTC). */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** Which temperature unit the owner reads first; null: the browser's default. */
  temperature_unit: ColumnType<
    TemperatureUnit | null,
    TemperatureUnit | null | undefined,
    TemperatureUnit | null
  >;
  /** The unit pets' weights are shown in (stored weights stay lbs); null: the browser's. */
  weight_unit: ColumnType<WeightUnit | null, WeightUnit | null | undefined, WeightUnit | null>;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface EmailConfirmationsTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
}

export interface DogsTable {
  id: string;
  user_id: string;
  name: string;
  breed: string | null;
  age: number | null;
  weight: number | null;
  medical_info: string | null;
  emergency_contact: string | null;
  sex: 'female' | 'male' | null;
  body_condition: number | null;
  /** JSON list of 'airway' | 'breathing' | 'heart'. */
  health_conditions: string | null;
  created_at: string;
  updated_at: string;
}

/** A person in a pet's pack (docs/pack.md): as what, and until when (null: until removed). */
export interface PackMembersTable {
  dog_id: string;
  user_id: string;
  role: 'co_owner' | 'caregiver';
  until: string | null;
  created_at: string;
}

/** An invitation to a pet's pack; the link's token only as its SHA-256. */
export interface PackInvitationsTable {
  id: string;
  dog_id: string;
  email: string;
  role: 'co_owner' | 'caregiver';
  until: string | null;
  token_hash: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
}

/** A generated key every instance on one database shares (the VAPID pair, decision 0049). */
export interface SharedKeysTable {
  name: string;
  value: string;
  created_at: string;
}

/** Minutes a pet's unacknowledged DANGER / CRITICAL heat alert waits before it is sent again. */
export interface PetEscalationTable {
  dog_id: string;
  danger_minutes: number;
  critical_minutes: number;
  updated_at: string;
}

export interface NotificationPreferencesTable {
  user_id: string;
  email_notifications_enabled: Bool;
  temperature_threshold: number;
  critical_temperature_threshold: number;
  email_frequency: 'immediate' | 'hourly' | 'daily';
  updated_at: string;
}

/** Mail waiting to be delivered; written in the same transaction as the event it reports. */
export interface OutboxTable {
  id: string;
  idempotency_key: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The instance id (instance-id.ts) of the server holding the row's claim; null when none. */
  claimed_by: Generated<string | null>;
  /** When the worker gave the mail up (status `failed`); null otherwise. */
  failed_at: Generated<string | null>;
  /** Why it was given up, for the Admin Portal: the mail server's answer, or the day ran out. */
  failure_reason: Generated<string | null>;
  /** What the row is: a mail, or a push to one browser (docs/push.md). */
  channel: Generated<'mail' | 'push'>;
  /** A push's browser (push_subscriptions.id); null for mail. */
  push_subscription_id: Generated<string | null>;
}

/** A browser that takes a person's pushes; `p256dh` and `auth` are its secrets. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
}

/** Which alerts push to a person; no row: DEFAULT_PUSH_SETTINGS. */
export interface PushSettingsTable {
  user_id: string;
  min_level: 'WARNING' | 'DANGER' | 'CRITICAL';
  offline: Bool;
  low_battery: Bool;
  updated_at: string;
}

/** A collar (or vest, harness, tracker); see DESIGN §3 for its states. */
export interface DevicesTable {
  id: string;
  device_id: string;
  device_address: string | null;
  device_name: string;
  device_type: 'collar' | 'vest' | 'harness' | 'tracker';
  status: 'active' | 'inactive' | 'maintenance' | 'offline';
  registration_status: 'unregistered' | 'unassigned' | 'assigned' | 'active';
  user_id: string | null;
  dog_id: string | null;
  firmware_version: string | null;
  battery_level: number | null;
  last_seen: string | null;
  created_at: string;
  updated_at: string;
  device_key_hash: string | null;
  temperature_celsius: number | null;
  humidity_percent: number | null;
  heart_rate: number | null;
  activity_level: number | null;
  /** The owner's thresholds' verdict (`threshold_status`); answers carry the dog's level (decision 0031). */
  vitals_status: string | null;
  vitals_recorded_at: string | null;
  /** 1 while a battery below 20 % would open a low-battery alert (DESIGN §3). */
  battery_alert_armed: Generated<number>;
  /** 1 while a collar auto-assign reserved has sent no reading (decision 0007). */
  auto_assigned: Generated<number>;
  /** The heat-risk model's judgement of the present (JSON reasons), and its state (JSON). */
  risk_band: string | null;
  risk_score: number | null;
  risk_reasons: string | null;
  risk_state: string | null;
  /** Readings this collar keeps (the account's storage quota sums them, decision 0039). */
  readings_stored: Generated<number>;
}

export interface WaitlistEntriesTable {
  id: string;
  name: string;
  email: string;
  phone: string;
  pet_name: string;
  pet_breed: string;
  created_at: string;
}

/** One reading of a collar; times are epoch milliseconds. */
export interface ReadingsTable {
  id: Generated<number>;
  /** The device row's id (devices.id); `device_id` is only ever the printed Device ID. */
  device_uuid: string;
  recorded_at: number;
  received_at: number;
  temperature: number;
  humidity: number;
  heart_rate: number | null;
  activity_level: number | null;
  battery: number | null;
  /** The owner's thresholds' verdict (`threshold_status`); answers carry the dog's level (decision 0031). */
  status: string;
  reported_status: string | null;
  lat: number | null;
  lon: number | null;
  risk_band: string | null;
  risk_score: number | null;
  /** JSON list of plain-words reasons. */
  risk_reasons: string | null;
}

/**
 * A collar's readings over one minute or one hour, summed up (services/rollup-summary.ts):
 * what history and the heat-risk back-test read instead of raw readings. Levels are ranks,
 * 0 (SAFE) to 3 (CRITICAL); times are epoch milliseconds.
 */
/** A collar's activity in one UTC hour (migration 017, docs/activity.md); times epoch ms. */
export interface ActivityHoursTable {
  /** The device row's id (devices.id); `device_id` is only ever the printed Device ID. */
  device_uuid: string;
  hour_at: number;
  source_count: number;
  active: number;
  vigorous: number;
  heat: number;
  still: number;
  worn: number;
  still_hr_sum: number;
  still_hr_count: number;
  safe_minutes: number;
  warning_minutes: number;
  danger_minutes: number;
  critical_minutes: number;
  max_heat_index: number | null;
  max_level: number;
}

/** A walk a collar's minutes showed (migration 017). */
export interface ActivityWalksTable {
  /** The device row's id (devices.id); `device_id` is only ever the printed Device ID. */
  device_uuid: string;
  start_at: number;
  minutes: number;
  active_minutes: number;
  peak_heat_index: number | null;
  peak_level: number;
}

/** The owner's daily goal for a dog; no row: the suggestion. */
export interface ActivityGoalsTable {
  dog_id: string;
  active_minutes: number;
  updated_at: string;
}

/** Whether an account gets the weekly insights mail, and the last week it was queued for. */
export interface InsightMailSettingsTable {
  user_id: string;
  weekly_insights: Bool;
  last_week: string | null;
  updated_at: string;
}

export interface ReadingRollupsTable {
  /** The device row's id (devices.id); `device_id` is only ever the printed Device ID. */
  device_uuid: string;
  /** 60 or 3600. */
  bucket_seconds: number;
  bucket_at: number;
  first_at: number;
  last_at: number;
  count: number;
  temperature_min: number | null;
  temperature_max: number | null;
  temperature_sum: number;
  temperature_count: number;
  humidity_min: number | null;
  humidity_max: number | null;
  humidity_sum: number;
  humidity_count: number;
  heart_rate_min: number | null;
  heart_rate_max: number | null;
  heart_rate_sum: number;
  heart_rate_count: number;
  activity_min: number | null;
  activity_max: number | null;
  activity_sum: number;
  activity_count: number;
  /** The owner's thresholds' verdict (`threshold_status`). */
  status_first: number;
  status_last: number;
  status_max: number;
  status_rises: number;
  status_elevated_ms: number;
  /** The dog's one level (decision 0031): the higher of the thresholds and the risk band. */
  level_first: number;
  level_last: number;
  level_max: number;
  level_rises: number;
  level_elevated_ms: number;
  /** 1/0: see RollupSummary's headStatus, tailStatus and quietSpells. */
  level_head_status: number;
  level_tail_status: number;
  level_quiet_spells: number;
}

export interface StreamTicketsTable {
  ticket_hash: string;
  session_id: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
}

/** An alert (DESIGN §3); at most one open (resolved_at null) per device and type. */
export interface AlertsTable {
  id: string;
  /** The device row's id (devices.id); `device_id` is only ever the printed Device ID. */
  device_uuid: string;
  user_id: string;
  type: 'heat' | 'offline' | 'low_battery' | 'collar_off' | 'over_budget';
  level: 'WARNING' | 'DANGER' | 'CRITICAL' | null;
  opened_at: string;
  reading_at: string | null;
  escalated_at: string | null;
  resolved_at: string | null;
  resolved_by: 'condition' | 'owner' | null;
  /** The collar's time of the reading that resolved it (resolved by the condition), else null. */
  resolved_reading_at: string | null;
  peak_temperature_celsius: number | null;
  peak_heat_index_f: number | null;
  battery_level: number | null;
  /** heat: JSON list of the reasons as of opening or the last escalation. */
  reasons: string | null;
  /** heat: when the owner acknowledged it (cleared by an escalation), else null. */
  acknowledged_at: string | null;
  /** heat: who acknowledged it (users.id), with acknowledged_at; else null. */
  acknowledged_by: string | null;
  /** heat: the level whose "not yet acknowledged" reminder was sent, and when; else null. */
  reminded_level: 'DANGER' | 'CRITICAL' | null;
  reminded_at: string | null;
}

/** One per alert opening or escalation, for the device's owner. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  alert_id: string;
  kind: 'opened' | 'escalated' | 'unacknowledged';
  level: 'WARNING' | 'DANGER' | 'CRITICAL' | null;
  title: string;
  message: string;
  read_at: string | null;
  created_at: string;
}

/** An immediate alert mail queued (cooldown and hourly cap). */
export interface AlertMailsTable {
  id: string;
  user_id: string;
  /** The device row's id (devices.id); `device_id` is only ever the printed Device ID. */
  device_uuid: string;
  /** What the mail was about: the cooldown holds back only a repeat of the same news. */
  alert_type: AlertType;
  /** heat: the level it reported; otherwise null. */
  level: AlertLevel | null;
  created_at: string;
}

/** A notification waiting for a digest mail; digest_key once one has taken it. */
export interface DigestEntriesTable {
  notification_id: string;
  user_id: string;
  created_at: string;
  digest_key: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  email_confirmations: EmailConfirmationsTable;
  dogs: DogsTable;
  notification_preferences: NotificationPreferencesTable;
  outbox: OutboxTable;
  waitlist_entries: WaitlistEntriesTable;
  devices: DevicesTable;
  readings: ReadingsTable;
  reading_rollups: ReadingRollupsTable;
  activity_hours: ActivityHoursTable;
  activity_walks: ActivityWalksTable;
  activity_goals: ActivityGoalsTable;
  insight_mail_settings: InsightMailSettingsTable;
  stream_tickets: StreamTicketsTable;
  alerts: AlertsTable;
  notifications: NotificationsTable;
  alert_mails: AlertMailsTable;
  digest_entries: DigestEntriesTable;
  push_subscriptions: PushSubscriptionsTable;
  push_settings: PushSettingsTable;
  pet_escalation: PetEscalationTable;
  pack_members: PackMembersTable;
  pack_invitations: PackInvitationsTable;
  shared_keys: SharedKeysTable;
}

export const toBool = (v: Bool): boolean => v === true || v === 1;
export const fromBool = (v: boolean): number => (v ? 1 : 0);
