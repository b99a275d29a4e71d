// `npm run sim:trace` options, parsed without side effects so they can be tested.
import { EPISODE_KEYS } from './episodes.js';
import { parseArgsOrUsage, UsageError, wholeNumber } from './options.js';
import { PROFILE_KEYS, type ProfileKey, type WeekKind } from './week.js';

export const TRACE_WEEKS = ['cool', 'mild', 'warm', 'hot'] as const satisfies readonly WeekKind[];

export type TraceOptions = {
  seed: number;
  format: 'csv' | 'jsonl';
  /** Add what happened each minute (behaviour, place, collar, air) beside the reading. */
  truth: boolean;
  out: string | null;
} & (
  | { what: 'week'; dog: ProfileKey; week: WeekKind; days: number }
  | { what: 'episode'; episode: string }
);

export const TRACE_USAGE = `Usage: npm run sim:trace -- [options]

Writes a collar trace, a reading a minute, without a server: a week in a dog's life, or a
dangerous episode with its lead-in.

  --dog NAME       ${PROFILE_KEYS.join(', ')} (default labrador)
  --week KIND      ${TRACE_WEEKS.join(', ')} (default mild)
  --days N         days of the week to write, 1 to 14 (default 7)
  --episode KEY    an episode instead of a week: ${EPISODE_KEYS.join(', ')}
  --seed N         the trace's seed (default 1): the same seed writes the same trace
  --format F       csv (default) or jsonl (one reading as the collar posts it a line)
  --truth          add what happened each minute (behaviour, place, collar, air °C)
  --out FILE       write there instead of standard output
  --help           this text`;

export function parseTraceOptions(argv: string[]): TraceOptions | 'help' {
  const values = parseArgsOrUsage(argv, {
    dog: { type: 'string' },
    week: { type: 'string' },
    days: { type: 'string' },
    episode: { type: 'string' },
    seed: { type: 'string' },
    format: { type: 'string' },
    truth: { type: 'boolean' },
    out: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) return 'help';
  const seed = wholeNumber(values.seed ?? '1', 'seed', 0, 2 ** 32 - 1);
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl') throw new UsageError('--format must be csv or jsonl');
  const common = { seed, format, truth: values.truth ?? false, out: values.out ?? null } as const;
  if (values.episode !== undefined) {
    if (values.dog !== undefined || values.week !== undefined || values.days !== undefined)
      throw new UsageError(
        '--episode names its own dog and days: leave out --dog, --week and --days',
      );
    if (!EPISODE_KEYS.includes(values.episode))
      throw new UsageError(`--episode must be one of ${EPISODE_KEYS.join(', ')}`);
    return { ...common, what: 'episode', episode: values.episode };
  }
  const dog = values.dog ?? 'labrador';
  if (!(PROFILE_KEYS as string[]).includes(dog))
    throw new UsageError(`--dog must be one of ${PROFILE_KEYS.join(', ')}`);
  const week = values.week ?? 'mild';
  if (!(TRACE_WEEKS as readonly string[]).includes(week))
    throw new UsageError(`--week must be one of ${TRACE_WEEKS.join(', ')}`);
  const days = wholeNumber(values.days ?? '7', 'days', 1, 14);
  return {
    ...common,
    what: 'week',
    dog: dog as ProfileKey,
    week: week as WeekKind,
    days,
  };
}
