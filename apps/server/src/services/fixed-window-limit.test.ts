import { describe, expect, it } from 'vitest';
import { FixedWindowLimit } from './fixed-window-limit.js';
import { TooManyRequestsError } from './errors.js';

describe('a fixed-window limit', () => {
  it('allows `limit` hits a window, then says how long to wait', () => {
    const limit = new FixedWindowLimit(2, 60_000);
    limit.hit('a', 0);
    expect(limit.retryAfterSeconds('a', 1_000)).toBe(0);
    limit.hit('a', 1_000);
    expect(limit.retryAfterSeconds('a', 1_000)).toBe(59);
    expect(limit.retryAfterSeconds('b', 1_000)).toBe(0);
  });

  it('opens a new window once the old one has ended, and forgets a key on reset', () => {
    const limit = new FixedWindowLimit(1, 60_000);
    limit.hit('a', 0);
    expect(limit.retryAfterSeconds('a', 59_999)).toBe(1);
    expect(limit.retryAfterSeconds('a', 60_000)).toBe(0);
    limit.hit('b', 0);
    limit.reset('b');
    expect(limit.retryAfterSeconds('b', 1)).toBe(0);
  });

  it('take() counts each call and refuses the one over the limit with 429 and Retry-After', () => {
    const limit = new FixedWindowLimit(2, 60_000, 'Slow down.');
    limit.take('a', 0);
    limit.take('a', 0);
    let refused: unknown;
    try {
      limit.take('a', 30_000);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).message).toBe('Slow down.');
    expect((refused as TooManyRequestsError).headers['retry-after']).toBe('30');
  });

  it('stays bounded: beyond maxKeys it drops ended windows, then the oldest', () => {
    const limit = new FixedWindowLimit(2, 1_000, undefined, 2);
    limit.hit('old', 0);
    limit.hit('mid', 500);
    limit.hit('new', 600); // full: drops the oldest still open ('old')
    limit.hit('old', 700); // so this opens a fresh window: 1 of 2, not 2 of 2
    expect(limit.retryAfterSeconds('old', 700)).toBe(0);
  });

  it('never drops a key that is over its limit, however many new keys arrive (a lock stays)', () => {
    const limit = new FixedWindowLimit(2, 60_000, undefined, 3);
    limit.hit('victim', 0);
    limit.hit('victim', 0);
    for (let i = 0; i < 50; i++) limit.hit(`spray-${i}`, 1_000);
    expect(limit.retryAfterSeconds('victim', 2_000)).toBe(58);
  });

  it('tryTake() lets exactly `limit` of many back-to-back calls through', () => {
    const limit = new FixedWindowLimit(3, 60_000);
    const waits = Array.from({ length: 10 }, () => limit.tryTake('a', 0));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
    expect(waits.filter((w) => w === 60)).toHaveLength(7);
  });

  it('counts a weight per hit (readings, bytes), and lets the hit that fills the window through', () => {
    const limit = new FixedWindowLimit(2_500, 60_000);
    expect(limit.tryTake('a', 0, 1_000)).toBe(0);
    expect(limit.tryTake('a', 0, 1_000)).toBe(0);
    // 2,000 of 2,500: the next list of 1,000 still goes (a list is never split)…
    expect(limit.tryTake('a', 0, 1_000)).toBe(0);
    // …and the window is then spent.
    expect(limit.tryTake('a', 1_000, 1)).toBe(59);
    expect(limit.tryTake('a', 60_000, 1_000)).toBe(0);
  });
});
