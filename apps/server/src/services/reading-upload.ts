import {
  MAX_CLOCK_SKEW_MS,
  READINGS_BATCH_MAX,
  readingInputSchema,
  type ParsedReading,
} from '@pawguard/shared';
import type { z } from 'zod';
import { describeValidation } from '../plugins/error-handler.js';
import { BadRequestError } from './errors.js';

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
 * so nothing of it is stored. A timestamp more than 5 minutes ahead of `now` is refused too.
 */
export function parseReadingUpload(body: unknown, now: number): ParsedReading[] {
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
    if (r.data.timestamp !== undefined && r.data.timestamp > now + MAX_CLOCK_SKEW_MS) {
      throw new BadRequestError(
        `${prefix ? `${prefix}.` : ''}timestamp is more than 5 minutes in the future`,
      );
    }
    parsed.push(r.data);
  }
  return parsed;
}
