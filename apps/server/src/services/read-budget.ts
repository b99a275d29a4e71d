import type { FastifyBaseLogger } from 'fastify';
import { OncePerMinute } from './log-sampler.js';
import { TokenBucket } from './token-bucket.js';
import { BudgetRefusal, RefusalStretches } from './refusal-delay.js';

/**
 * Chart reads (history, the back-test, activity, insights) an account may make, before
 * RATE_LIMIT_MULTIPLIER scales it (decision 0046): 200 at once, then 20 a second (1,200 a
 * minute). The web app asks each dog card's activity and insights when the card comes into
 * view, its activity again every minute and as its collar's readings arrive (at most every
 * 15 s), and a history or back-test when a page or range opens: the admin's fleet page of
 * 100 dog cards asks about 200 at once, and about 500 a minute while 100 collars report.
 * A caller looping on them asks thousands a minute and is held to the rate.
 */
export const CHART_READS = { burst: 200, perSecond: 20 } as const;
const REFUSAL = 'Too many chart requests for this account. Please try again in a moment.';

/**
 * The per-account budget of chart reads (RES-8): one account looping on history or the
 * back-test, from as many addresses as it likes, is refused with 429 and Retry-After, and its
 * repeated refusals are held a second on a timer (RefusalDelay), so it costs the server about
 * a refusal a second per connection instead of every read it can ask for. Logged once a
 * minute per account. In memory per instance, like the other limits (decision 0002).
 */
export class ReadBudget {
  private readonly bucket: TokenBucket;
  /** Accounts refused lately: their refusals are repeats. */
  private readonly stretches = new RefusalStretches();
  private readonly logged = new OncePerMinute();

  constructor(private readonly o: { multiplier: number; log: Pick<FastifyBaseLogger, 'warn'> }) {
    this.bucket = new TokenBucket(
      Math.ceil(CHART_READS.burst * o.multiplier),
      CHART_READS.perSecond * o.multiplier,
    );
  }

  /** Counts one chart read of `accountId`, or throws the 429 that refuses it. */
  take(accountId: string, now: number): void {
    const wait = this.bucket.take(accountId, now);
    if (wait === 0) return;
    const repeated = this.stretches.repeated(accountId, now, wait);
    this.log(accountId, wait, now);
    throw new BudgetRefusal(wait, REFUSAL, repeated);
  }

  private log(accountId: string, wait: number, now: number): void {
    const suppressed = this.logged.take(accountId, now);
    if (suppressed === null) return;
    this.o.log.warn(
      { event: 'reads.over_budget', account: accountId, retry_after_s: wait, suppressed },
      'chart reads refused: the account is over its budget',
    );
  }
}
