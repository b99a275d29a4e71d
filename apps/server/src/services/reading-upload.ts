import {
  MAX_CLOCK_SKEW_MS,
  READINGS_BATCH_MAX,
  readingInputSchema,
  type ParsedReading,
} from '@pawguard/shared';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import { describeValidation } from './describe-validation.js';
import { BadRequestError, ForbiddenError } from './errors.js';

const DAY_MS = 86_400_000;

/** Readings of a list checked on one turn of the event loop. */
const CHECK_SLICE = 250;

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
 * so nothing of it is stored. A timestamp more than 5 minutes ahead of `now`, or more than
 * `maxAgeDays` days old (READINGS_MAX_AGE_DAYS, default 7), is refused too, and so is a
 * `device_id` other than the collar's own.
 *
 * A long list is checked CHECK_SLICE readings at a time, each part on a turn of the event loop
 * of its own (checking 1,000 takes several milliseconds), so that other collars' uploads are
 * taken in between, as the commit queue stores such a list in slices (ingest/commit-queue.ts).
 */
export async function parseReadingUpload(
  body: unknown,
  now: number,
  deviceId: string,
  maxAgeDays: number,
): Promise<ParsedReading[]> {
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
    if (i > 0 && i % CHECK_SLICE === 0) await nextTurn();
    const prefix = list ? `readings[${i}]` : '';
    const r = readingInputSchema.safeParse(items[i]);
    if (!r.success) throw new BadRequestError(describe(r.error.issues[0]!, prefix));
    const field = (name: string) => `${prefix ? `${prefix}.` : ''}${name}`;
    if (r.data.timestamp !== undefined && r.data.timestamp > now + MAX_CLOCK_SKEW_MS) {
      throw new BadRequestError(`${field('timestamp')} is more than 5 minutes in the future`);
    }
    if (r.data.timestamp !== undefined && r.data.timestamp < now - maxAgeDays * DAY_MS) {
      throw new BadRequestError(`${field('timestamp')} is more than ${maxAgeDays} days old`);
    }
    // The credential, never the body, says which collar writes (DEV-3).
    if (r.data.device_id !== undefined && r.data.device_id !== deviceId) {
      throw new ForbiddenError(`${field('device_id')} is not the collar this request writes for`);
    }
    parsed.push(r.data);
  }
  return parsed;
}
