import { z } from 'zod';
import { PACK_ROLES } from './pack.js';
import {
  hasNoNul,
  isSingleLine,
  LIMITS,
  NUL_MESSAGE,
  optionalText,
  pageQueryShape,
  requiredAs,
  SINGLE_LINE_MESSAGE,
} from './common.js';
import { HEALTH_CONDITIONS, SEXES } from '../domain/heat-risk.js';

export const dogSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  breed: z.string().nullable(),
  age: z.number().int().nullable(),
  weight: z.number().nullable(),
  medical_info: z.string().nullable(),
  emergency_contact: z.string().nullable(),
  // Optional; they help PawGuard judge heat risk (docs/heat-risk.md). Unknown is neutral.
  sex: z.enum(SEXES).nullable(),
  body_condition: z.number().int().nullable(),
  health_conditions: z.array(z.enum(HEALTH_CONDITIONS)),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * What the caller is to this pet (docs/pack.md): its owner, or a member of its pack
   * (`co_owner` sees and manages it, `caregiver` sees it and its alerts).
   */
  access: z.enum(['owner', ...PACK_ROLES]),
  /** Who owns a pet shared with the caller; null for the caller's own. */
  owner_name: z.string().nullable(),
});
export type Dog = z.infer<typeof dogSchema>;

/** The admin's list adds the owner (and is no one's share of it). */
export const adminDogSchema = dogSchema
  .omit({ access: true, owner_name: true })
  .extend({ owner_name: z.string(), owner_email: z.string() });
export type AdminDog = z.infer<typeof adminDogSchema>;

/** POST and PUT take the same body; PUT replaces, so omitted optional fields become null. */
const WEIGHT_RANGE_MESSAGE = `weight must be between ${LIMITS.petWeightMin} and ${LIMITS.petWeightMax} lbs`;

/**
 * An optional number of a pet's: omitted, null or '' (a form's empty field, DESIGN §4) all
 * mean unknown, stored null.
 */
const optionalNumber = (schema: z.ZodNumber) =>
  z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable())
    .optional();

export const dogInputSchema = z.strictObject({
  name: z
    .string({ error: requiredAs('Pet name is required', 'name must be text') })
    .trim()
    .min(1, { error: 'Pet name is required' })
    .max(LIMITS.name, { error: `name must be at most ${LIMITS.name} characters` })
    .refine(hasNoNul, { error: `name ${NUL_MESSAGE}` })
    .refine(isSingleLine, { error: `name ${SINGLE_LINE_MESSAGE}` }),
  breed: optionalText(LIMITS.name),
  age: optionalNumber(
    z
      .number({ error: 'age must be a whole number of years' })
      .int({ error: 'age must be a whole number of years' })
      .min(0, { error: `age must be between 0 and ${LIMITS.petAgeMax}` })
      .max(LIMITS.petAgeMax, { error: `age must be between 0 and ${LIMITS.petAgeMax}` }),
  ),
  weight: optionalNumber(
    z
      .number({ error: 'weight must be a number of lbs' })
      .min(LIMITS.petWeightMin, { error: WEIGHT_RANGE_MESSAGE })
      .max(LIMITS.petWeightMax, { error: WEIGHT_RANGE_MESSAGE }),
  ),
  medical_info: optionalText(LIMITS.freeText),
  emergency_contact: optionalText(LIMITS.freeText),
  // '' (like null or omitted) means unknown, as for the other optional text fields.
  sex: z
    .enum([...SEXES, ''], { error: `sex must be one of ${SEXES.join(', ')}` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  body_condition: optionalNumber(
    z
      .number({ error: 'body_condition must be a whole number from 1 to 9' })
      .int({ error: 'body_condition must be a whole number from 1 to 9' })
      .min(1, { error: 'body_condition must be a whole number from 1 to 9' })
      .max(9, { error: 'body_condition must be a whole number from 1 to 9' }),
  ),
  health_conditions: z
    .array(
      z.enum(HEALTH_CONDITIONS, {
        error: `health_conditions may hold only ${HEALTH_CONDITIONS.join(', ')}`,
      }),
      { error: 'health_conditions must be a list' },
    )
    .max(HEALTH_CONDITIONS.length, { error: 'health_conditions must not repeat a condition' })
    .refine((v) => new Set(v).size === v.length, {
      error: 'health_conditions must not repeat a condition',
    })
    .nullable()
    .optional(),
});
export type DogInput = z.infer<typeof dogInputSchema>;

/** A page of pets (oldest first for an owner, newest first for an admin) and their total. */
export const dogsResponseSchema = z.object({ dogs: z.array(dogSchema), total: z.number().int() });
export const adminDogsResponseSchema = z.object({
  dogs: z.array(adminDogSchema),
  total: z.number().int(),
});
/** GET /api/dogs/all: a page, optionally one owner's pets only (the user details dialog). */
export const adminDogsQuerySchema = z.strictObject({
  ...pageQueryShape,
  user_id: z.uuid({ error: 'user_id must be a valid user id' }).optional(),
});
export type AdminDogsQuery = z.infer<typeof adminDogsQuerySchema>;
export const dogResponseSchema = z.object({ dog: dogSchema });
