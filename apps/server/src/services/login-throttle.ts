import { FixedWindowLimit } from './fixed-window-limit.js';
import { TooManyRequestsError } from './errors.js';

const LOCKED = 'Too many failed sign-in attempts. Please try again later.';
const WINDOW_MS = 15 * 60 * 1000;

/**
 * Failed sign-ins, counted before the password is hashed (docs/decisions/0006):
 * - strict: 10 per 15 minutes per account *and* client address, so a stranger who locks an
 *   account from their address does not lock out its owner signing in from another;
 * - ceiling: 100 per 15 minutes per account from all addresses together (NIST SP 800-63B
 *   §5.2.2), so rotating addresses buys an attacker at most 100 guesses a window.
 * Every attempt is counted the moment it arrives, in one synchronous step, so concurrent
 * guesses cannot all pass the check while the slow hashes run; a success clears the counts.
 */
export class LoginThrottle {
  private readonly strict: FixedWindowLimit;
  private readonly ceiling: FixedWindowLimit;

  constructor(multiplier = 1, maxKeys?: number) {
    this.strict = new FixedWindowLimit(Math.ceil(10 * multiplier), WINDOW_MS, LOCKED, maxKeys);
    this.ceiling = new FixedWindowLimit(Math.ceil(100 * multiplier), WINDOW_MS, LOCKED, maxKeys);
  }

  /** Counts an attempt for `account` from `address`, or refuses it with 429 and Retry-After. */
  begin(account: string, address: string, now: number): void {
    const pair = `${account}\u0000${address}`;
    const wait = Math.max(
      this.strict.retryAfterSeconds(pair, now),
      this.ceiling.retryAfterSeconds(account, now),
    );
    if (wait > 0) throw new TooManyRequestsError(wait, LOCKED);
    this.strict.hit(pair, now);
    this.ceiling.hit(account, now);
  }

  /** The password was right: this account's counts start again. */
  succeeded(account: string, address: string): void {
    this.strict.reset(`${account}\u0000${address}`);
    this.ceiling.reset(account);
  }
}
