import { z } from 'zod';

/** Every failure answers this shape; the web client reads `error`. */
export const errorSchema = z.object({ error: z.string() });
export type ApiError = z.infer<typeof errorSchema>;

/** For calls that take no body (logout): none, or an empty object; any field is refused. */
export const noBodySchema = z.strictObject({}).nullish();

export const successSchema = z.object({ success: z.literal(true) });

export const idParamSchema = z.strictObject({ id: z.uuid({ error: 'id must be a valid id' }) });
export type IdParam = z.infer<typeof idParamSchema>;

export const isoDateTime = z.string();

/** A field's type error: "x is required" when it is absent, else what it must be. */
export const requiredAs =
  (required: string, wrongType: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? required : wrongType;

/** PostgreSQL text cannot hold U+0000, and no one types it: refused with 400 in both databases. */
export const hasNoNul = (s: string) => !s.includes('\u0000');
export const NUL_MESSAGE = 'must not contain the NUL character';

/** Names are one line of text: no line breaks or other control characters. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const isSingleLine = (s: string) => !/[\u0000-\u001F\u007F]/.test(s);
export const SINGLE_LINE_MESSAGE = 'must not contain line breaks or control characters';

/** An optional free-text field: omitted, null or '' are all accepted and stored as null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .refine(hasNoNul, { error: NUL_MESSAGE })
    .nullable()
    .optional();

export const LIMITS = {
  name: 100,
  email: 254,
  passwordMin: 8,
  passwordMax: 128,
  freeText: 1000,
  deviceName: 50,
  phone: 30,
  petAgeMax: 40,
  petWeightMin: 0.1,
  petWeightMax: 400,
  pageSize: 100,
  readingsPageSize: 1000,
  /**
   * The deepest page of a collar's readings by offset: the database steps over every row it
   * skips, and a month of one-second readings is 2.6 million of them (RES-8). Older readings
   * are reached by time, `GET /api/devices/{id}/readings?from=&to=`.
   */
  readingsOffsetMax: 10_000,
} as const;

const LIMIT_MESSAGE = 'limit must be a number from 1 to 100';
const OFFSET_MESSAGE = 'offset must be a whole number, 0 or more';

/** `?limit=&offset=` of every list: at most 100 rows a page (DESIGN §4, RES-2). */
export const pageQueryShape = {
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int({ error: LIMIT_MESSAGE })
    .min(1, { error: LIMIT_MESSAGE })
    .max(LIMITS.pageSize, { error: LIMIT_MESSAGE })
    .default(LIMITS.pageSize),
  offset: z.coerce
    .number({ error: OFFSET_MESSAGE })
    .int({ error: OFFSET_MESSAGE })
    .min(0, { error: OFFSET_MESSAGE })
    .default(0),
};
export const pageQuerySchema = z.strictObject(pageQueryShape);
export type PageQuery = z.infer<typeof pageQuerySchema>;
/** A page of a list: its rows (named by the list) and how many there are in all. */
export interface Page<T> {
  rows: T[];
  total: number;
}
