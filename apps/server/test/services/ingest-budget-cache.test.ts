import { describe, expect, it } from 'vitest';
import { IngestBudget, STORED_CACHE_MAX } from '../../src/services/ingest-budget.js';

const budget = () =>
  new IngestBudget({ multiplier: 1, quota: 100, log: { warn: () => undefined } });

describe('the storage quota’s counts in memory', () => {
  it('keeps a full account’s fresh count when more accounts than the cache holds are read', () => {
    const b = budget();
    const others = Array.from({ length: STORED_CACHE_MAX }, (_, i) => `other-${i}`);
    b.storedKnown(others, new Map(), 0);
    // The full account is read, then, within its minute, a batch reads one more account.
    b.storedKnown(['full'], new Map([['full', 100]]), 10_000);
    b.storedKnown(['new'], new Map(), 20_000);
    // Not stale, so not read again for this batch: its count must still be there.
    expect(b.staleAccounts(['full'], 30_000)).toEqual([]);
    expect(b.chargeAccount('full', 'collar', 1, 100, 30_000)?.statusCode).toBe(429);
  });

  it('lets the oldest counts go once they are stale, keeping the cache at its size', () => {
    const b = budget();
    const others = Array.from({ length: STORED_CACHE_MAX }, (_, i) => `other-${i}`);
    b.storedKnown(others, new Map(), 0);
    b.storedKnown(['full'], new Map([['full', 100]]), 70_000);
    expect(b.accountsKnown).toBe(STORED_CACHE_MAX);
    expect(b.chargeAccount('full', 'collar', 1, 100, 70_000)?.statusCode).toBe(429);
    expect(b.staleAccounts(['other-0', `other-${STORED_CACHE_MAX - 1}`], 70_000)).toHaveLength(2);
  });
});
