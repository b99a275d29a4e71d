import { z } from 'zod';
import { hasNoNul, isSingleLine, LIMITS, NUL_MESSAGE, SINGLE_LINE_MESSAGE } from './common.js';
import { DEVICE_ID_PATTERN, normalizeMac } from '../domain/device-id.js';
import { DEVICE_STATUSES, DEVICE_TYPES, REGISTRATION_STATUSES } from '../domain/device-state.js';
import { VITALS_STATUSES } from '../domain/vitals-status.js';

// Messages starting 'must' are prefixed with the field's path by the server ('devices.1.device_id
// must be …'), so an item of a list is named by its index; a missing field falls back to the
// server's '<path> is required'.
export const deviceTypeSchema = z.enum(DEVICE_TYPES, {
  error: `must be one of ${DEVICE_TYPES.join(', ')}`,
});
export const deviceStatusSchema = z.enum(DEVICE_STATUSES, {
  error: `must be one of ${DEVICE_STATUSES.join(', ')}`,
});
export const registrationStatusSchema = z.enum(REGISTRATION_STATUSES);

/** A Device ID in any case ('pet-ab12'); parsed to upper case ('PET-AB12'). */
export const deviceIdField = z
  .string({ error: (iss) => (iss.input === undefined ? undefined : 'must be text') })
  .trim()
  .toUpperCase()
  .regex(DEVICE_ID_PATTERN, {
    error: 'must be PET- followed by 4 letters or digits (e.g. PET-AB12)',
  });

const MAC_MESSAGE = 'must be a MAC address: 6 pairs of hex digits, e.g. AA:BB:CC:DD:EE:FF';

/** A MAC address in any case, with ':' or '-' or no separators; parsed to AA:BB:CC:DD:EE:FF. */
export const macAddressField = z
  .string({
    error: (iss) => (iss.input === undefined ? undefined : MAC_MESSAGE),
  })
  .trim()
  .max(17, { error: MAC_MESSAGE })
  .refine((v) => normalizeMac(v) !== null, { error: MAC_MESSAGE })
  .overwrite((v) => normalizeMac(v) ?? v);

/** The same, where '' (like null or omitted) means none. */
const optionalMacField = z
  .string({ error: MAC_MESSAGE })
  .trim()
  .max(17, { error: MAC_MESSAGE })
  .refine((v) => v === '' || normalizeMac(v) !== null, { error: MAC_MESSAGE })
  .overwrite((v) => (v === '' ? v : (normalizeMac(v) ?? v)))
  .nullable()
  .optional();

/** One line of text: no NUL (PostgreSQL cannot store it), no line breaks or control characters. */
const oneLine = <T extends z.ZodType<string>>(field: T) =>
  field
    .refine(hasNoNul, { error: NUL_MESSAGE })
    .refine(isSingleLine, { error: SINGLE_LINE_MESSAGE });

export const deviceNameField = oneLine(
  z
    .string({ error: 'Device name is required' })
    .trim()
    .min(1, { error: 'Device name is required' })
    .max(LIMITS.deviceName, { error: `must be at most ${LIMITS.deviceName} characters` }),
);

const petIdField = z.uuid({
  error: (iss) => (iss.input === undefined ? undefined : 'must be a valid pet id'),
});
const firmwareField = z
  .string({
    error: (iss) => (iss.input === undefined ? undefined : 'must be text'),
  })
  .trim()
  .max(50, { error: 'must be at most 50 characters' })
  .refine(hasNoNul, { error: NUL_MESSAGE })
  .refine(isSingleLine, { error: SINGLE_LINE_MESSAGE });

/**
 * The heat-risk model's judgement (docs/heat-risk.md), beside the vitals status: a band, the
 * score and the top reasons in plain words. Null (and no reasons) until judged.
 */
export const riskFields = {
  risk_band: z.enum(VITALS_STATUSES).nullable(),
  risk_score: z.number().nullable(),
  risk_reasons: z.array(z.string()),
};

/** What every device answer carries; the device key (and its hash) never appear here. */
export const deviceSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  device_address: z.string().nullable(),
  device_name: z.string(),
  device_type: deviceTypeSchema,
  status: deviceStatusSchema,
  registration_status: registrationStatusSchema,
  user_id: z.string().nullable(),
  dog_id: z.string().nullable(),
  dog_name: z.string().nullable(),
  owner_name: z.string().nullable(),
  firmware_version: z.string().nullable(),
  battery_level: z.number().nullable(),
  last_seen: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  // Latest vitals: null until the collar has sent readings.
  temperature_celsius: z.number().nullable(),
  humidity_percent: z.number().nullable(),
  heart_rate: z.number().nullable(),
  activity_level: z.number().nullable(),
  /**
   * The dog's one level (DESIGN §3 "One level per dog"): the higher of `threshold_status`
   * and `risk_band`; what the heat alert follows and every screen and mail shows.
   */
  vitals_status: z.enum(VITALS_STATUSES).nullable(),
  /** The owner's thresholds' own verdict on the latest reading. */
  threshold_status: z.enum(VITALS_STATUSES).nullable(),
  vitals_recorded_at: z.string().nullable(),
  ...riskFields,
  /**
   * The collar seems not to be on its dog: it normally reports a heart rate and has sent
   * neither a heart rate nor any movement for 5 minutes. A data-quality state, not a heat
   * level: while it holds, its readings raise no heat alert below the owner's critical
   * threshold (decision 0034).
   */
  collar_off: z.boolean(),
});
export type Device = z.infer<typeof deviceSchema>;

/** A page of devices and how many there are in all. */
export const devicesResponseSchema = z.object({
  devices: z.array(deviceSchema),
  total: z.number().int(),
});
export const deviceResponseSchema = z.object({ device: deviceSchema });
export type DevicesResponse = z.infer<typeof devicesResponseSchema>;
export type DeviceResponse = z.infer<typeof deviceResponseSchema>;

export const deviceIdParamSchema = z.strictObject({ deviceId: deviceIdField });
export const macParamSchema = z.strictObject({ mac: macAddressField });

/**
 * PUT /api/devices/{id}: `dog_id: null` takes the collar off its pet; an omitted dog_id,
 * device_name or device_type keeps the stored one. `status` is for admins only.
 */
export const updateDeviceInputSchema = z.strictObject({
  device_name: deviceNameField.optional(),
  device_type: deviceTypeSchema.optional(),
  dog_id: petIdField.nullable().optional(),
  status: deviceStatusSchema.optional(),
});
export type UpdateDeviceInput = z.infer<typeof updateDeviceInputSchema>;

/** POST /api/devices/assign/{deviceId}: the customer's pet and the name they give the collar. */
export const assignDeviceInputSchema = z.strictObject({
  dog_id: petIdField,
  device_name: deviceNameField,
  device_type: deviceTypeSchema.optional(),
});
export type AssignDeviceInput = z.infer<typeof assignDeviceInputSchema>;

/** POST /api/devices: the fallback when the Device ID is unknown; stored unregistered. */
export const createDeviceInputSchema = z.strictObject({
  device_id: deviceIdField,
  dog_id: petIdField,
  device_name: deviceNameField,
  device_type: deviceTypeSchema.optional(),
  // Optional like every optional field: omitted, null or '' (stored null).
  device_address: optionalMacField,
  firmware_version: firmwareField.nullable().optional(),
});
export type CreateDeviceInput = z.infer<typeof createDeviceInputSchema>;

/** At most this many devices in one pre-populate list. */
export const PRE_POPULATE_MAX = 100;

export const prePopulateItemSchema = z.strictObject({
  device_id: deviceIdField,
  device_address: macAddressField,
  // Omitted, null or blank: 'Device ' + the Device ID.
  device_name: oneLine(
    z
      .string({ error: 'must be text' })
      .trim()
      .max(LIMITS.deviceName, { error: `must be at most ${LIMITS.deviceName} characters` }),
  )
    .nullable()
    .optional(),
  device_type: deviceTypeSchema.optional(),
});
export const prePopulateInputSchema = z.strictObject({
  devices: z
    .array(prePopulateItemSchema, {
      error: (iss) => (iss.input === undefined ? undefined : 'must be a list'),
    })
    .min(1, { error: 'must list at least one device' })
    .max(PRE_POPULATE_MAX, { error: `must list at most ${PRE_POPULATE_MAX} devices` }),
});
export type PrePopulateInput = z.infer<typeof prePopulateInputSchema>;

/**
 * The only answer that ever carries a device key (and a QR code of it). `adopted` is true
 * when the Device ID was a customer's unregistered device; `owner_name` says whose it is.
 */
export const prePopulatedDeviceSchema = z.object({
  id: z.string(),
  device_id: z.string(),
  device_key: z.string(),
  qr_code: z.string(),
  adopted: z.boolean(),
  owner_name: z.string().nullable(),
});
export type PrePopulatedDevice = z.infer<typeof prePopulatedDeviceSchema>;
export const prePopulateResponseSchema = z.object({ devices: z.array(prePopulatedDeviceSchema) });

/** POST /api/admin/devices/{id}/rotate-key: the new key, shown in this answer only. */
export const rotateKeyResponseSchema = z.object({ device: prePopulatedDeviceSchema });

/** POST /api/devices/register (admin): assigns a device to a user. */
export const registerDeviceInputSchema = z.strictObject({
  device_id: deviceIdField,
  user_id: z.uuid({
    error: (iss) => (iss.input === undefined ? undefined : 'must be a valid user id'),
  }),
});
export type RegisterDeviceInput = z.infer<typeof registerDeviceInputSchema>;

/** POST /api/devices/self-register: what the collar reports about itself. */
export const selfRegisterInputSchema = z.strictObject({
  firmware_version: firmwareField.min(1, { error: 'firmware_version is required' }),
  device_address: macAddressField,
});
export type SelfRegisterInput = z.infer<typeof selfRegisterInputSchema>;

/** The collar's view of itself: never its UUID, owner or pet. */
export const selfRegisterResponseSchema = z.object({
  device: z.object({
    device_id: z.string(),
    device_address: z.string().nullable(),
    firmware_version: z.string().nullable(),
    registration_status: registrationStatusSchema,
    status: deviceStatusSchema,
  }),
});

/** POST /api/device-registration/auto-assign. */
export const autoAssignInputSchema = z.strictObject({
  dog_id: petIdField,
  device_name: deviceNameField,
});
export type AutoAssignInput = z.infer<typeof autoAssignInputSchema>;

export const deviceLookupResponseSchema = z.object({
  status: z.enum(['assigned', 'unassigned']),
  message: z.string(),
});
export type DeviceLookup = z.infer<typeof deviceLookupResponseSchema>;

export const generatedDeviceIdResponseSchema = z.object({ device_id: z.string() });
export const qrCodeResponseSchema = z.object({ qr_code: z.string() });
