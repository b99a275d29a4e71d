import { z } from 'zod';

/** Every failure answers this shape; the web client reads `error`. */
export const errorSchema = z.object({ error: z.string() });
export type ApiError = z.infer<typeof errorSchema>;

export const successSchema = z.object({ success: z.literal(true) });

export const idParamSchema = z.strictObject({ id: z.uuid({ error: 'id must be a valid id' }) });
export type IdParam = z.infer<typeof idParamSchema>;

export const isoDateTime = z.string();

/** An optional free-text field: omitted, null or '' are all accepted and stored as null. */
export const optionalText = (max: number) =>
  z.string().trim().max(max, { error: `must be at most ${max} characters` }).nullable().optional();

export const LIMITS = {
  name: 100,
  email: 254,
  passwordMin: 8,
  passwordMax: 128,
  freeText: 1000,
  deviceName: 50,
  phone: 30,
  pageSize: 100,
  readingsPageSize: 1000,
} as const;
