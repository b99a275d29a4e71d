import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('lets a burst of its capacity through, then its rate, and fills again while idle', () => {
    const b = new TokenBucket(5, 2);
    const at = 1_000_000;
    expect(Array.from({ length: 6 }, () => b.take('a', at))).toEqual([0, 0, 0, 0, 0, 1]);
    // Half a second: one more token at 2 a second.
    expect(b.take('a', at + 500)).toBe(0);
    expect(b.take('a', at + 500)).toBe(1);
    // Another key has its own bucket.
    expect(b.take('b', at + 500)).toBe(0);
    // Idle long enough, the whole burst again, and no more than the capacity.
    const later = at + 60_000;
    expect(Array.from({ length: 6 }, () => b.take('a', later))).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it('answers whole seconds to wait, at least one', () => {
    const b = new TokenBucket(1, 0.25);
    expect(b.take('a', 0)).toBe(0);
    expect(b.take('a', 0)).toBe(4);
    expect(b.take('a', 2000)).toBe(2);
  });

  it('keeps at most maxKeys buckets, dropping full ones first', () => {
    const b = new TokenBucket(2, 1, 2);
    b.take('a', 0);
    b.take('a', 0);
    b.take('b', 0);
    // 'b' has filled again by 1 s; 'a' (emptied) is kept.
    expect(b.take('c', 1000)).toBe(0);
    expect(b.take('a', 1000)).toBe(0);
    expect(b.take('a', 1000)).toBe(1);
  });

  it('fills nothing and takes nothing for a clock stepped back', () => {
    const b = new TokenBucket(1, 1);
    expect(b.take('a', 10_000)).toBe(0);
    expect(b.take('a', 5_000)).toBe(1);
    expect(b.take('a', 11_000)).toBe(0);
  });
});
