import { FixedWindowLimit } from './fixed-window-limit.js';
import { TooManyRequestsError } from './errors.js';

const LOCKED = 'Too many failed sign-in attempts. Please try again later.';
const WINDOW_MS = 15 * 60 * 1000;
/** An address an account signed in from is known to it this long after the last success. */
const KNOWN_FOR_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * At most this many known addresses per account (the most recent), and accounts kept (past
 * that, the accounts whose last success is oldest are forgotten first).
 */
const KNOWN_PER_ACCOUNT = 5;
const KNOWN_ACCOUNTS = 100_000;

/**
 * Failed sign-ins, counted before the password is hashed (docs/decisions/0006):
 * - strict: 10 per 15 minutes per account *and* client address, so a stranger who locks an
 *   account from their address does not lock out its owner signing in from another;
 * - ceiling: 100 per 15 minutes per account from all addresses together (NIST SP 800-63B
 *   §5.2.2), so rotating addresses buys an attacker at most 100 guesses a window.
 * A success clears its own address's count, never the ceiling.
 * Every attempt is counted the moment it arrives, in one synchronous step, so concurrent
 * guesses cannot all pass the check while the slow hashes run; a success clears the counts.
 * An address the account signed in from in the last 30 days (the 5 most recent) is refused by
 * the strict count only: a stranger rotating addresses can hold the ceiling down, but not keep
 * the owner out of the places they sign in from. Its attempts still count towards the ceiling,
 * so the guesses per account and window are at most 100 from unknown addresses plus 10 from
 * each known one (150 in all).
 */
export class LoginThrottle {
  private readonly strict: FixedWindowLimit;
  private readonly ceiling: FixedWindowLimit;
  /** account → address → last success (ms); least recently used accounts go first. */
  private readonly known = new Map<string, Map<string, number>>();

  constructor(multiplier = 1, maxKeys?: number) {
    this.strict = new FixedWindowLimit(Math.ceil(10 * multiplier), WINDOW_MS, LOCKED, maxKeys);
    this.ceiling = new FixedWindowLimit(Math.ceil(100 * multiplier), WINDOW_MS, LOCKED, maxKeys);
  }

  /** Counts an attempt for `account` from `address`, or refuses it with 429 and Retry-After. */
  begin(account: string, address: string, now: number): void {
    const pair = `${account}\u0000${address}`;
    const known = this.isKnown(account, address, now);
    const wait = Math.max(
      this.strict.retryAfterSeconds(pair, now),
      known ? 0 : this.ceiling.retryAfterSeconds(account, now),
    );
    if (wait > 0) throw new TooManyRequestsError(wait, LOCKED);
    this.strict.hit(pair, now);
    // Counted towards the ceiling wherever it comes from; only refused by it when unknown.
    this.ceiling.hit(account, now);
  }

  /**
   * The password was right: this address's count starts again, and the address is known. The
   * ceiling runs out with its window: a success must not hand guessers a fresh 100.
   */
  succeeded(account: string, address: string, now: number): void {
    this.strict.reset(`${account}\u0000${address}`);
    const addresses = this.known.get(account) ?? new Map<string, number>();
    this.known.delete(account);
    addresses.delete(address);
    addresses.set(address, now);
    while (addresses.size > KNOWN_PER_ACCOUNT) addresses.delete(addresses.keys().next().value!);
    this.known.set(account, addresses);
    while (this.known.size > KNOWN_ACCOUNTS) this.known.delete(this.known.keys().next().value!);
  }

  private isKnown(account: string, address: string, now: number): boolean {
    const at = this.known.get(account)?.get(address);
    return at !== undefined && now - at < KNOWN_FOR_MS;
  }
}
