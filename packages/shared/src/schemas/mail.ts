import { z } from 'zod';

/**
 * What a mail was about, read from its outbox key: an alert, a digest of alerts, an e-mail
 * confirmation, a collar's setup note, or something else.
 */
export const MAIL_KINDS = ['alert', 'digest', 'confirmation', 'collar_setup', 'other'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The most recent given-up mails GET /api/admin/mail/failed answers. */
export const FAILED_MAILS_LIMIT = 50;

/**
 * A mail the server gave up delivering: its recipient refused for good by the mail server, or
 * a day of retries ran out. Never its body.
 */
export const failedMailSchema = z.strictObject({
  id: z.string(),
  /** The recipient's e-mail address. */
  recipient: z.string(),
  subject: z.string(),
  kind: z.enum(MAIL_KINDS),
  created_at: z.string(),
  /** When it was given up; null for mail given up before the server recorded that. */
  failed_at: z.string().nullable(),
  attempts: z.number().int(),
  /**
   * Why, in one line: the mail server's last answer ("550 5.1.1 <ann@example.com>: user
   * unknown"), or "gave up after a day of retries (last: …)".
   */
  reason: z.string(),
});
export type FailedMail = z.infer<typeof failedMailSchema>;

/** The most recently given-up mails first, at most FAILED_MAILS_LIMIT, with `total` in all. */
export const failedMailsResponseSchema = z.strictObject({
  mails: z.array(failedMailSchema),
  total: z.number().int(),
});
export type FailedMailsResponse = z.infer<typeof failedMailsResponseSchema>;

/** POST /api/admin/mail/{id}/retry: the mail is back in the queue, due now. */
export const retryMailResponseSchema = z.strictObject({
  id: z.string(),
  status: z.literal('pending'),
});
export type RetryMailResponse = z.infer<typeof retryMailResponseSchema>;
