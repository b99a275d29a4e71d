import { z } from 'zod';
import {
  isSingleLine,
  LIMITS,
  pageQuerySchema,
  requiredAs,
  SINGLE_LINE_MESSAGE,
  type PageQuery,
} from './common.js';
import { PET_BREEDS } from '../content.js';

const required = (label: string, max: number) =>
  z
    .string({ error: requiredAs(`${label} is required`, `${label} must be text`) })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .refine(isSingleLine, { error: `${label} ${SINGLE_LINE_MESSAGE}` });

export const waitlistInputSchema = z.strictObject({
  name: required('name', LIMITS.name),
  email: z
    .string({ error: requiredAs('email is required', 'email must be text') })
    .trim()
    .min(1, { error: 'email is required' })
    .max(LIMITS.email, { error: `email must be at most ${LIMITS.email} characters` })
    .pipe(z.email({ error: 'email must be a valid e-mail address' })),
  phone: required('phone', LIMITS.phone).regex(/^\+?[0-9 ().-]*[0-9][0-9 ().-]*$/, {
    error: 'phone may contain only digits, spaces and + ( ) . -',
  }),
  petName: required('petName', LIMITS.name),
  petBreed: z.enum(PET_BREEDS, { error: 'petBreed must be one of the listed breeds' }),
});
export type WaitlistInput = z.infer<typeof waitlistInputSchema>;

export const waitlistEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  petName: z.string(),
  petBreed: z.string(),
  created_at: z.string(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

export const waitlistJoinResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});
export const waitlistEntriesResponseSchema = z.object({
  entries: z.array(waitlistEntrySchema),
  total: z.number().int(),
});

/** The admin list pages at most 100 entries (newest first); the CSV export has them all. */
export const waitlistPageQuerySchema = pageQuerySchema;
export type WaitlistPageQuery = PageQuery;
