import { describe, expect, it } from 'vitest';
import { UsageError } from './options.js';
import { parseTraceOptions } from './trace-options.js';

describe('sim:trace options', () => {
  it('writes a mild week of the Labrador as CSV by default', () => {
    expect(parseTraceOptions([])).toEqual({
      what: 'week',
      dog: 'labrador',
      week: 'mild',
      days: 7,
      seed: 1,
      format: 'csv',
      truth: false,
      out: null,
    });
  });

  it('takes a dog, a week, a seed and a format', () => {
    const o = parseTraceOptions([
      '--dog',
      'frenchie',
      '--week',
      'hot',
      '--seed',
      '42',
      '--format',
      'jsonl',
      '--truth',
    ]);
    expect(o).toMatchObject({
      what: 'week',
      dog: 'frenchie',
      week: 'hot',
      seed: 42,
      format: 'jsonl',
      truth: true,
    });
  });

  it('takes an episode instead of a week', () => {
    expect(parseTraceOptions(['--episode', 'parked-car-24'])).toMatchObject({
      what: 'episode',
      episode: 'parked-car-24',
    });
  });

  it('refuses what it does not know, naming the choices', () => {
    expect(() => parseTraceOptions(['--dog', 'wolf'])).toThrow(
      /--dog must be one of labrador, frenchie/,
    );
    expect(() => parseTraceOptions(['--week', 'tropical'])).toThrow(UsageError);
    expect(() => parseTraceOptions(['--episode', 'volcano'])).toThrow(/--episode must be one of/);
    expect(() => parseTraceOptions(['--episode', 'parked-car-24', '--dog', 'puppy'])).toThrow(
      /leave out --dog/,
    );
    expect(() => parseTraceOptions(['--days', '0'])).toThrow(/--days/);
    expect(() => parseTraceOptions(['--seed', '-1'])).toThrow(/--seed/);
    expect(() => parseTraceOptions(['--colour'])).toThrow(UsageError);
  });
});
