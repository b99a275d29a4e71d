import { z } from 'zod';
import { LIMITS, hasNoNul, isSingleLine, NUL_MESSAGE, SINGLE_LINE_MESSAGE } from './common.js';
import { VITALS_STATUSES } from '../domain/vitals-status.js';
import { deviceIdField, deviceSchema, riskFields } from './device.js';

/** A collar may not date a reading more than this far ahead of the server's clock. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/**
 * Nor further back than this, by default (the server's READINGS_MAX_AGE_DAYS): a collar holds
 * about 7 days of readings on its battery.
 */
export const MAX_READING_AGE_MS = 7 * 86_400_000;
/** The widest from–to span GET /readings answers. */
export const MAX_READINGS_SPAN_MS = 31 * 86_400_000;
/** At most this many readings in one upload (a collar back online sends its backlog). */
export const READINGS_BATCH_MAX = 1000;

// The messages leave the field out: the server names it with its place ('readings[3].humidity
// is required', 'location.lat must be …').
const num = (min: number, max: number, int = false) => {
  const range = `must be ${int ? 'a whole number ' : ''}between ${min} and ${max}`;
  let s = z.number({
    error: (iss) => (iss.input === undefined ? 'is required' : 'must be a number'),
  });
  if (int) s = s.int({ error: range });
  return s.min(min, { error: range }).max(max, { error: range });
};

/**
 * A timestamp as a collar sends it: ISO-8601 with a zone (Z or ±hh:mm), or epoch milliseconds.
 * Parsed to epoch ms; "not in the future" is checked by the server against its own clock.
 */
const TIMESTAMP_MESSAGE = 'must be an ISO-8601 date-time with a zone, or epoch milliseconds';
export const readingTimestampField = z
  .union(
    [
      z.iso.datetime({ offset: true, error: TIMESTAMP_MESSAGE }),
      z
        .number({ error: TIMESTAMP_MESSAGE })
        .int({ error: TIMESTAMP_MESSAGE })
        .nonnegative({ error: TIMESTAMP_MESSAGE }),
    ],
    { error: TIMESTAMP_MESSAGE },
  )
  .transform((v) => (typeof v === 'number' ? v : Date.parse(v)));

/** One reading as a collar posts it (DESIGN §3 "Reading fields"); unknown fields are refused. */
export const readingInputSchema = z.strictObject({
  // Optional; when sent it must be the posting collar's own Device ID (else 403).
  device_id: deviceIdField.optional(),
  temperature: num(-40, 60),
  humidity: num(0, 100),
  heart_rate: num(20, 300, true).nullish(),
  activity_level: num(0, 100, true).nullish(),
  battery: num(0, 100, true).nullish(),
  // The collar's own judgement, kept as `reported_status`; the server computes `status`.
  status: z
    .string({ error: 'must be text' })
    .trim()
    .max(20, { error: 'must be at most 20 characters' })
    .refine(hasNoNul, { error: NUL_MESSAGE })
    .refine(isSingleLine, { error: SINGLE_LINE_MESSAGE })
    .nullish(),
  timestamp: readingTimestampField.optional(),
  location: z
    .strictObject({
      lat: num(-90, 90),
      lon: num(-180, 180),
    })
    .nullish(),
});
export type ReadingInput = z.input<typeof readingInputSchema>;
export type ParsedReading = z.output<typeof readingInputSchema>;

/** POST /api/devices/{deviceId}/vitals: one reading, or a list of up to 1,000. */
export const readingUploadSchema = z.union([
  readingInputSchema,
  z
    .array(readingInputSchema)
    .min(1, { error: 'must hold at least one reading' })
    .max(READINGS_BATCH_MAX, { error: `must hold at most ${READINGS_BATCH_MAX} readings` }),
]);

export const vitalsStatusSchema = z.enum(VITALS_STATUSES);

/** A stored reading, as every vitals and readings answer carries it. */
export const readingSchema = z.object({
  id: z.string(),
  /** The collar's Device ID (PET-XXXX). */
  device_id: z.string(),
  /** When the collar took the reading (ISO-8601 UTC). */
  timestamp: z.string(),
  temperature: z.number(),
  humidity: z.number(),
  heart_rate: z.number().nullable(),
  activity_level: z.number().nullable(),
  battery: z.number().nullable(),
  /**
   * The dog's one level at this reading (DESIGN §3 "One level per dog"): the higher of
   * `threshold_status` and `risk_band`, as the device's `vitals_status` carries it.
   */
  status: vitalsStatusSchema,
  /** The owner's thresholds' own verdict on this reading. */
  threshold_status: vitalsStatusSchema,
  /** The status as the collar reported it, if it did. */
  reported_status: z.string().nullable(),
  location: z.object({ lat: z.number(), lon: z.number() }).nullable(),
  /** When the server stored it (ISO-8601 UTC). */
  received_at: z.string(),
  ...riskFields,
});
export type Reading = z.infer<typeof readingSchema>;

/** 201 to a reading upload: what was stored, in the order sent (a repeat answers the original). */
export const readingUploadResponseSchema = z.object({
  vitals: z.union([readingSchema, z.array(readingSchema)]),
});

/** GET /api/devices/{id}/vitals: newest first. */
export const vitalsQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: `limit must be between 1 and ${LIMITS.readingsPageSize}` })
    .max(LIMITS.readingsPageSize, {
      error: `limit must be between 1 and ${LIMITS.readingsPageSize}`,
    })
    .default(100),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int({ error: 'offset must be a whole number' })
    .min(0, { error: 'offset must be 0 or more' })
    .max(LIMITS.readingsOffsetMax, {
      error: `offset must be at most ${LIMITS.readingsOffsetMax.toLocaleString('en-US')}: older readings are read by time, GET /api/devices/{id}/readings?from=&to=`,
    })
    .default(0),
});
export type VitalsQuery = z.infer<typeof vitalsQuerySchema>;
export const vitalsPageResponseSchema = z.object({
  vitals: z.array(readingSchema),
  total: z.number(),
});
export const latestVitalsResponseSchema = z.object({ vitals: readingSchema.nullable() });

/** GET /api/devices/{id}/readings: `latest=1`, or `from` and `to` (ISO-8601), else all. */
export const readingsQuerySchema = z
  .strictObject({
    latest: z.enum(['1', 'true'], { error: 'latest must be 1' }).optional(),
    from: z.iso.datetime({ offset: true, error: 'from must be an ISO-8601 date-time' }).optional(),
    to: z.iso.datetime({ offset: true, error: 'to must be an ISO-8601 date-time' }).optional(),
  })
  .refine((q) => !(q.latest && (q.from || q.to)), {
    error: 'Use latest=1, or from and to, not both',
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) >= Date.parse(q.from), {
    error: 'to must not be before from',
  })
  .refine(
    (q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= MAX_READINGS_SPAN_MS,
    { error: 'from and to must be at most 31 days apart' },
  );
export type ReadingsQuery = z.infer<typeof readingsQuerySchema>;
/** The spec's realtime-database shape: a map keyed by reading id, each with its `deviceId`. */
export const readingsMapResponseSchema = z.object({
  readings: z.record(z.string(), readingSchema.extend({ deviceId: z.string() })),
});

/** GET /api/devices/{id}/history?range=…: min, avg and max per time bucket. */
export const HISTORY_RANGES = { '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
export type HistoryRange = keyof typeof HISTORY_RANGES;
/** Each series has at most about this many buckets, whatever the range. */
export const HISTORY_MAX_BUCKETS = 500;
export const historyQuerySchema = z.strictObject({
  range: z
    .enum(Object.keys(HISTORY_RANGES) as [HistoryRange, ...HistoryRange[]], {
      error: 'range must be one of: 1h, 24h, 7d',
    })
    .default('24h'),
});
const stat = z.object({ min: z.number(), avg: z.number(), max: z.number() }).nullable();
export const historyBucketSchema = z.object({
  /** The bucket's start (ISO-8601 UTC). */
  t: z.string(),
  count: z.number(),
  temperature: stat,
  humidity: stat,
  heart_rate: stat,
});
export type HistoryBucket = z.infer<typeof historyBucketSchema>;
export const historyResponseSchema = z.object({
  range: z.enum(Object.keys(HISTORY_RANGES) as [HistoryRange, ...HistoryRange[]]),
  from: z.string(),
  to: z.string(),
  bucket_seconds: z.number(),
  /** The device owner's thresholds (°F), drawn on the temperature chart. */
  thresholds: z.object({ warning: z.number(), critical: z.number() }),
  buckets: z.array(historyBucketSchema),
});
export type History = z.infer<typeof historyResponseSchema>;

/**
 * What a reading changes on its device; the live stream carries it so screens update the
 * device in place without a fetch.
 */
export const deviceVitalsPatchSchema = deviceSchema.pick({
  status: true,
  registration_status: true,
  battery_level: true,
  last_seen: true,
  temperature_celsius: true,
  humidity_percent: true,
  heart_rate: true,
  activity_level: true,
  vitals_status: true,
  threshold_status: true,
  vitals_recorded_at: true,
  risk_band: true,
  risk_score: true,
  risk_reasons: true,
  collar_off: true,
});
export type DeviceVitalsPatch = z.infer<typeof deviceVitalsPatchSchema>;
