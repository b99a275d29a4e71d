import {
  MAX_CLOCK_SKEW_MS,
  MAX_READING_AGE_MS,
  READINGS_BATCH_MAX,
  readingInputSchema,
  type ParsedReading,
} from '@pawguard/shared';
import type { z } from 'zod';
import { describeValidation } from './describe-validation.js';
import { BadRequestError, ForbiddenError } from './errors.js';

/** A backlog of 1,000 readings is about 200 kB of JSON; anything larger answers 413. */
export const READINGS_BODY_LIMIT = 512 * 1024;

function describe(issue: z.core.$ZodIssue, prefix: string): string {
  const path = issue.path.map(String);
  return describeValidation(
    [
      {
        keyword: issue.code,
        instancePath: [prefix, ...path]
          .filter(Boolean)
          .map((p) => `/${p}`)
          .join(''),
        message: issue.message,
        params: issue as unknown as Record<string, unknown>,
      },
    ],
    'body',
  );
}

/**
 * A reading upload: one reading, or a list of up to 1,000. Any bad item refuses the whole
 * request with a message naming the item and the field ('readings[3].temperature must be …'),
 * so nothing of it is stored. A timestamp more than 5 minutes ahead of `now`, or more than 7
 * days old, is refused too, and so is a `device_id` other than the collar's own.
 */
export function parseReadingUpload(body: unknown, now: number, deviceId: string): ParsedReading[] {
  const list = Array.isArray(body);
  const items: unknown[] = list ? body : [body];
  if (!list && (body === null || typeof body !== 'object')) {
    throw new BadRequestError(
      'Request body must be a reading (a JSON object) or a list of readings',
    );
  }
  if (items.length === 0) throw new BadRequestError('Request body must hold at least one reading');
  if (items.length > READINGS_BATCH_MAX) {
    throw new BadRequestError(`A request holds at most ${READINGS_BATCH_MAX} readings`);
  }
  const parsed: ParsedReading[] = [];
  for (let i = 0; i < items.length; i++) {
    const prefix = list ? `readings[${i}]` : '';
    const r = readingInputSchema.safeParse(items[i]);
    if (!r.success) throw new BadRequestError(describe(r.error.issues[0]!, prefix));
    const field = (name: string) => `${prefix ? `${prefix}.` : ''}${name}`;
    if (r.data.timestamp !== undefined && r.data.timestamp > now + MAX_CLOCK_SKEW_MS) {
      throw new BadRequestError(`${field('timestamp')} is more than 5 minutes in the future`);
    }
    if (r.data.timestamp !== undefined && r.data.timestamp < now - MAX_READING_AGE_MS) {
      throw new BadRequestError(`${field('timestamp')} is more than 7 days old`);
    }
    // The credential, never the body, says which collar writes (DEV-3).
    if (r.data.device_id !== undefined && r.data.device_id !== deviceId) {
      throw new ForbiddenError(`${field('device_id')} is not the collar this request writes for`);
    }
    parsed.push(r.data);
  }
  return parsed;
}
