import { z } from 'zod';
import { requiredAs } from './common.js';

export const EMAIL_FREQUENCIES = ['immediate', 'hourly', 'daily'] as const;
export const emailFrequencySchema = z.enum(EMAIL_FREQUENCIES);
export type EmailFrequency = z.infer<typeof emailFrequencySchema>;

/** Thresholds are °F; the settings inputs allow 70–120 in steps of 0.1. */
export const THRESHOLD_MIN_F = 70;
export const THRESHOLD_MAX_F = 120;

export const DEFAULT_PREFERENCES = {
  email_notifications_enabled: true,
  temperature_threshold: 85,
  critical_temperature_threshold: 105,
  email_frequency: 'immediate',
} as const satisfies Preferences;

const threshold = (label: string) =>
  z
    .number({ error: requiredAs(`${label} is required`, `${label} must be a number`) })
    .min(THRESHOLD_MIN_F, {
      error: `${label} must be between ${THRESHOLD_MIN_F} and ${THRESHOLD_MAX_F} °F`,
    })
    .max(THRESHOLD_MAX_F, {
      error: `${label} must be between ${THRESHOLD_MIN_F} and ${THRESHOLD_MAX_F} °F`,
    });

export const preferencesSchema = z.object({
  email_notifications_enabled: z.boolean(),
  temperature_threshold: z.number(),
  critical_temperature_threshold: z.number(),
  email_frequency: emailFrequencySchema,
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const preferencesInputSchema = z.strictObject({
  email_notifications_enabled: z.boolean({
    error: requiredAs(
      'email_notifications_enabled is required',
      'email_notifications_enabled must be true or false',
    ),
  }),
  temperature_threshold: threshold('temperature_threshold'),
  critical_temperature_threshold: threshold('critical_temperature_threshold'),
  email_frequency: z.enum(EMAIL_FREQUENCIES, {
    error: requiredAs(
      'email_frequency is required',
      'email_frequency must be immediate, hourly or daily',
    ),
  }),
});
export type PreferencesInput = z.infer<typeof preferencesInputSchema>;

export const preferencesResponseSchema = z.object({ preferences: preferencesSchema });
