import type { FastifyBaseLogger } from 'fastify';
import { FixedWindowLimit } from './fixed-window-limit.js';
import { BudgetRefusal } from './refusal-delay.js';

/**
 * Chart reads (history, the back-test, activity, insights) an account may make, before
 * RATE_LIMIT_MULTIPLIER scales it (decision 0046): 60 in any 6 seconds, so 600 a minute, in
 * bursts of at most 60. The web app asks each dog's activity once a minute while its card is
 * in view, and a history or back-test when a page or range opens: an account with 20 dogs in
 * three tabs asks about 60 a minute, and opening a page of 20 dog cards asks about 40 at once.
 * A caller looping on them asks thousands. Windows of 6 s rather than a minute: a loop's
 * allowance is spread over the minute instead of taken in one burst that holds the server.
 */
export const CHART_READS = { perWindow: 60, windowMs: 6_000 } as const;
const MINUTE = 60_000;

const REFUSAL = 'Too many chart requests for this account. Please try again in a moment.';

/**
 * The per-account budget of chart reads (RES-8): one account looping on history or the
 * back-test, from as many addresses as it likes, is refused with 429 and Retry-After, and its
 * repeated refusals are held a second on a timer (RefusalDelay), so it costs the server about
 * a refusal a second per connection instead of every read it can ask for. Logged once a
 * minute per account. In memory per instance, like the other limits (decision 0002).
 */
export class ReadBudget {
  private readonly limit: FixedWindowLimit;
  /** Until when each account refused lately stays refused (ms): its refusals are repeats. */
  private readonly overUntil = new Map<string, number>();
  private readonly logged = new Map<string, { minute: number; left: number }>();

  constructor(private readonly o: { multiplier: number; log: Pick<FastifyBaseLogger, 'warn'> }) {
    this.limit = new FixedWindowLimit(
      Math.ceil(CHART_READS.perWindow * o.multiplier),
      CHART_READS.windowMs,
    );
  }

  /** Counts one chart read of `accountId`, or throws the 429 that refuses it. */
  take(accountId: string, now: number): void {
    const wait = this.limit.tryTake(accountId, now);
    if (wait === 0) return;
    const repeated = (this.overUntil.get(accountId) ?? 0) > now;
    if (!repeated) {
      if (this.overUntil.size > 10_000)
        for (const [k, until] of this.overUntil) if (until <= now) this.overUntil.delete(k);
      this.overUntil.set(accountId, now + wait * 1000);
    }
    this.log(accountId, wait, now);
    throw new BudgetRefusal(wait, REFUSAL, repeated);
  }

  private log(accountId: string, wait: number, now: number): void {
    const minute = Math.floor(now / MINUTE);
    const entry = this.logged.get(accountId);
    if (entry && entry.minute === minute) {
      entry.left++;
      return;
    }
    if (this.logged.size > 10_000)
      for (const [k, v] of this.logged) if (v.minute < minute) this.logged.delete(k);
    this.logged.set(accountId, { minute, left: 0 });
    this.o.log.warn(
      {
        event: 'reads.over_budget',
        account: accountId,
        retry_after_s: wait,
        suppressed: entry?.left ?? 0,
      },
      'chart reads refused: the account is over its budget',
    );
  }
}
