import { describe, expect, it } from 'vitest';
import { parseReadingUpload } from './reading-upload.js';
import { BadRequestError } from './errors.js';

const NOW = Date.parse('2026-07-01T12:00:00Z');
const list = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    temperature: 30,
    humidity: 50,
    timestamp: new Date(NOW - (n - i) * 1000).toISOString(),
  }));

describe('parseReadingUpload', () => {
  it('checks a list of 1,000 in parts, letting other work run between them', async () => {
    const between: string[] = [];
    const parsing = parseReadingUpload(list(1000), NOW, 'PET-AAAA', 7).then((r) => {
      between.push(`parsed ${r.length}`);
    });
    // Queued after the parse began: it runs before the parse ends only if the parse yields.
    setImmediate(() => between.push('other work'));
    await parsing;
    expect(between).toEqual(['other work', 'parsed 1000']);
  });

  it('checks a single reading and a short list on the same turn', async () => {
    const order: string[] = [];
    const parsing = parseReadingUpload(list(250), NOW, 'PET-AAAA', 7).then(() =>
      order.push('parsed'),
    );
    setImmediate(() => order.push('other work'));
    await parsing;
    // Done before the event loop turned: the other work has not run yet.
    expect(order).toEqual(['parsed']);
  });

  it('names the bad item of a long list, past the first part', async () => {
    const items: unknown[] = list(600);
    items[512] = { temperature: 'hot', humidity: 50 };
    await expect(parseReadingUpload(items, NOW, 'PET-AAAA', 7)).rejects.toThrow(
      new BadRequestError('readings[512].temperature must be a number'),
    );
  });
});
