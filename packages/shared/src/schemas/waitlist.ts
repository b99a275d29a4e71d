import { z } from 'zod';
import { LIMITS } from './common.js';
import { PET_BREEDS } from '../content.js';

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

export const waitlistInputSchema = z.strictObject({
  name: required('name', LIMITS.name),
  email: z
    .string({ error: 'email is required' })
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

export const waitlistJoinResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export const waitlistEntriesResponseSchema = z.object({ entries: z.array(waitlistEntrySchema) });
