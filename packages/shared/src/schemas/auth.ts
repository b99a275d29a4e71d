import { z } from 'zod';
import { canonicalTimeZone } from '../domain/time-zone.js';
import { TEMPERATURE_UNITS, WEIGHT_UNITS } from '../domain/units.js';
import {
  hasNoNul,
  isSingleLine,
  LIMITS,
  NUL_MESSAGE,
  requiredAs,
  SINGLE_LINE_MESSAGE,
} from './common.js';

export const ROLES = ['admin', 'user'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  /**
   * The owner's time zone (IANA name, e.g. America/New_York): mails name times in it and the
   * daily digest goes at 08:00 there. Null while unknown (UTC); the web sends the browser's.
   */
  time_zone: z.string().nullable(),
  /**
   * Which temperature unit the owner reads first ('F' or 'C'; the other always follows) and
   * which unit pets' weights are shown in ('lbs' or 'kg'); null means the browser's default.
   */
  temperature_unit: z.enum(TEMPERATURE_UNITS).nullable(),
  weight_unit: z.enum(WEIGHT_UNITS).nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** The admin view of a user: adds how many pets they have. */
export const adminUserSchema = userSchema.extend({ dogs_count: z.number().int() });
export type AdminUser = z.infer<typeof adminUserSchema>;

const EMAIL_TOO_LONG = `email must be at most ${LIMITS.email} characters`;
const PASSWORD_TOO_LONG = `password must be at most ${LIMITS.passwordMax} characters`;

const emailField = z
  .string({ error: requiredAs('email is required', 'email must be text') })
  .trim()
  .max(LIMITS.email, { error: EMAIL_TOO_LONG })
  .pipe(z.email({ error: 'email must be a valid e-mail address' }));

/**
 * Passwords: 8–128 characters of any kind, never trimmed or case-folded; but not spaces alone,
 * which the sign-in form takes for an empty field (DESIGN §6), so such an account could never
 * sign in there.
 */
const passwordField = z
  .string({ error: requiredAs('password is required', 'password must be text') })
  .min(LIMITS.passwordMin, { error: `password must be at least ${LIMITS.passwordMin} characters` })
  .max(LIMITS.passwordMax, { error: PASSWORD_TOO_LONG })
  .refine((p) => p.trim() !== '', { error: 'password must not be only spaces' });

const TIME_ZONE_MESSAGE = 'time_zone must be an IANA time zone name, such as America/New_York';
/** An IANA time zone name, answered in its canonical spelling; anything else is a 400. */
export const timeZoneField = z
  .string({ error: requiredAs('time_zone is required', TIME_ZONE_MESSAGE) })
  .transform((name, ctx) => {
    const zone = canonicalTimeZone(name.trim());
    if (zone === null) {
      ctx.addIssue({ code: 'custom', message: TIME_ZONE_MESSAGE });
      return z.NEVER;
    }
    return zone;
  });

const TEMPERATURE_UNIT_MESSAGE = "temperature_unit must be 'F' or 'C'";
const temperatureUnitField = z.enum(TEMPERATURE_UNITS, { error: TEMPERATURE_UNIT_MESSAGE });
const WEIGHT_UNIT_MESSAGE = "weight_unit must be 'lbs' or 'kg'";
const weightUnitField = z.enum(WEIGHT_UNITS, { error: WEIGHT_UNIT_MESSAGE });

export const registerInputSchema = z.strictObject({
  email: emailField,
  password: passwordField,
  name: z
    .string({ error: requiredAs('name is required', 'name must be text') })
    .trim()
    .min(1, { error: 'name is required' })
    .max(LIMITS.name, { error: `name must be at most ${LIMITS.name} characters` })
    .refine(hasNoNul, { error: `name ${NUL_MESSAGE}` })
    .refine(isSingleLine, { error: `name ${SINGLE_LINE_MESSAGE}` }),
  /** Optional: the browser's time zone, stored with the account (mail times, the digest). */
  time_zone: timeZoneField.optional(),
  /** Optional: the units the browser's locale uses (the web sends them). */
  temperature_unit: temperatureUnitField.optional(),
  weight_unit: weightUnitField.optional(),
});
export type RegisterInput = z.infer<typeof registerInputSchema>;

export const loginInputSchema = z.strictObject({
  email: z
    .string({ error: requiredAs('email is required', 'email must be text') })
    .trim()
    .min(1, { error: 'email is required' })
    .max(LIMITS.email, { error: EMAIL_TOO_LONG })
    .refine(hasNoNul, { error: `email ${NUL_MESSAGE}` }),
  password: z
    .string({ error: requiredAs('password is required', 'password must be text') })
    .min(1, { error: 'password is required' })
    .max(LIMITS.passwordMax, { error: PASSWORD_TOO_LONG }),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const profileResponseSchema = z.object({ user: userSchema });

/** PUT /api/auth/profile/time-zone: the owner's time zone (the web sends the browser's). */
export const timeZoneInputSchema = z.strictObject({ time_zone: timeZoneField });
export type TimeZoneInput = z.infer<typeof timeZoneInputSchema>;

/**
 * PUT /api/auth/profile/preferences: any of the owner's display settings; a field left out
 * keeps its value, a unit set to null goes back to the browser's default.
 */
export const profilePreferencesInputSchema = z
  .strictObject({
    temperature_unit: temperatureUnitField.nullable().optional(),
    weight_unit: weightUnitField.nullable().optional(),
    time_zone: timeZoneField.optional(),
  })
  .refine((input) => Object.values(input).some((v) => v !== undefined), {
    error: 'Give at least one of temperature_unit, weight_unit and time_zone',
  });
export type ProfilePreferencesInput = z.infer<typeof profilePreferencesInputSchema>;
/**
 * A page of users, newest first, with `total` users in all, and the platform counts the
 * Admin Dashboard shows (over every user, not only this page).
 */
export const usersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().int(),
  admin_count: z.number().int(),
  active_count: z.number().int(),
});
export type UsersResponse = z.infer<typeof usersResponseSchema>;

export const roleInputSchema = z.strictObject({
  role: z.enum(ROLES, { error: requiredAs('role is required', 'role must be admin or user') }),
});
export type RoleInput = z.infer<typeof roleInputSchema>;

export const confirmParamSchema = z.strictObject({ token: z.string().min(1).max(512) });
