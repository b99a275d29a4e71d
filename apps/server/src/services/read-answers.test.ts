import { describe, expect, it } from 'vitest';
import { ReadAnswers, type ReadStamp } from './read-answers.js';

const stamp = (n: number, owner = 'o'): ReadStamp => ({
  owner,
  lastSeen: `t${n}`,
  readingsStored: n,
});

describe('ReadAnswers', () => {
  it('keeps an answer while the stamp and window stay, and reads again when either moves', async () => {
    const a = new ReadAnswers<string>(() => 1, 10);
    let reads = 0;
    const read = (v: string) => async () => (reads++, v);
    expect(await a.get('d', '7d', 'w1', stamp(1), read('one'))).toBe('one');
    expect(await a.get('d', '7d', 'w1', stamp(1), read('again'))).toBe('one');
    expect(await a.get('d', '7d', 'w1', stamp(2), read('two'))).toBe('two');
    expect(await a.get('d', '7d', 'w1', stamp(2, 'next owner'), read('theirs'))).toBe('theirs');
    expect(await a.get('d', '7d', 'w2', stamp(2, 'next owner'), read('moved'))).toBe('moved');
    expect(reads).toBe(4);
    // A moved window replaced its entry: one answer per collar and question.
    expect(a.size.answers).toBe(1);
  });

  it('holds its weight, the oldest out first', async () => {
    const a = new ReadAnswers<number[]>((v) => v.length, 5);
    await a.get('d1', 'q', 'w', stamp(1), async () => [1, 2]);
    await a.get('d2', 'q', 'w', stamp(1), async () => [1, 2]);
    await a.get('d3', 'q', 'w', stamp(1), async () => [1, 2, 3]);
    expect(a.size).toEqual({ answers: 2, weight: 5 });
    let read = false;
    await a.get('d1', 'q', 'w', stamp(1), async () => ((read = true), [1]));
    expect(read).toBe(true);
  });

  it('forgets a collar, and keeps nothing of a read under way when it does', async () => {
    const a = new ReadAnswers<string>(() => 1, 10);
    await a.get('d', 'q', 'w', stamp(1), async () => 'kept');
    await a.get('e', 'q', 'w', stamp(1), async () => 'other');
    a.forget('d');
    expect(a.size.answers).toBe(1);
    // A read that answers `value` once released, begun on `device`'s question `q`.
    let release!: () => void;
    const readUnderWay = (device: string, q: string, value: string) =>
      a.get(device, q, 'w', stamp(1), () => new Promise<string>((r) => (release = () => r(value))));
    const slow = readUnderWay('d', 'q', 'old');
    a.forget('d'); // released while it was read
    release();
    expect(await slow).toBe('old');
    expect(await a.get('d', 'q', 'w', stamp(1), async () => 'fresh')).toBe('fresh');
    // Everything, when events may have been missed, a read under way included.
    const slower = readUnderWay('e', 'r', 'stale');
    a.forget();
    release();
    await slower;
    expect(a.size).toEqual({ answers: 0, weight: 0 });
  });
});
