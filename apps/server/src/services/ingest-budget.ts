import type { FastifyBaseLogger } from 'fastify';
import { FixedWindowLimit } from './fixed-window-limit.js';
import { OncePerMinute } from './log-sampler.js';
import { BudgetRefusal, RefusalStretches } from './refusal-delay.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MIB = 1024 * 1024;

/**
 * What one collar and one owner account may upload (decision 0039), before
 * RATE_LIMIT_MULTIPLIER scales it. A collar reporting every second sends 60 readings a
 * minute and 3,600 an hour; a 7-day backlog of once-a-minute readings is 10,080 readings in
 * 11 lists of at most 1,000 (at most 11 × 512 KiB): each fits with room to spare. A flood of
 * 1,000-reading lists is refused after 12 of them in a minute, and 30 in an hour. An account
 * takes five such backlogs in one minute (a family's collars back in range together) and
 * nine in an hour.
 */
export const INGEST_BUDGET = {
  collar: {
    requestsPerMinute: 600,
    minute: { readings: 12_000, bytes: 8 * MIB },
    hour: { readings: 30_000, bytes: 24 * MIB },
  },
  account: {
    minute: { readings: 60_000, bytes: 40 * MIB },
    hour: { readings: 100_000, bytes: 60 * MIB },
  },
} as const;

/**
 * Readings kept per account (READINGS_QUOTA_PER_ACCOUNT). Two collars reporting every second
 * keep 5,184,000 readings in the default 30 days of retention, plus up to an hour more
 * (retention runs hourly): they fit, with room for a backlog's repeats of a few days.
 */
export const DEFAULT_READINGS_QUOTA = 6_000_000;

/** An account's count of readings kept is read again from the database after this long. */
const STORED_TTL_MS = MINUTE;
/** Accounts whose count is kept in memory; past it, counts no longer fresh are let go. */
export const STORED_CACHE_MAX = 100_000;
/** Refused while over the quota: retention frees room at most this often (housekeeping). */
const QUOTA_RETRY_SECONDS = 3600;

const COLLAR_REFUSAL = 'Too many readings from this collar. Send a backlog as one list instead.';
const ACCOUNT_REFUSAL = 'Too many readings for this account’s collars. Please try again later.';
const quotaRefusal = (quota: number) =>
  `This account keeps ${quota.toLocaleString('en-US')} readings at most and is full: new readings are refused until older ones expire. Contact support to raise the quota.`;

/** Why a collar's readings were refused: its (or its account's) upload rate, or the quota. */
export type OverBudget = 'rate' | 'quota';

interface Window {
  limit: FixedWindowLimit;
  /** What one upload counts in it. */
  weight: (readings: number, bytes: number) => number;
}

type Spans = { [span in 'minute' | 'hour']: { readings: number; bytes: number } };

/** Readings and bytes, over a minute and over an hour, scaled by `m`. */
const windows = (m: number, b: Spans): Window[] =>
  (['minute', 'hour'] as const).flatMap((span) => {
    const ms = span === 'hour' ? HOUR : MINUTE;
    return [
      {
        limit: new FixedWindowLimit(Math.ceil(b[span].readings * m), ms),
        weight: (readings: number) => readings,
      },
      {
        limit: new FixedWindowLimit(Math.ceil(b[span].bytes * m), ms),
        weight: (_: number, bytes: number) => bytes,
      },
    ];
  });

/**
 * Ingest budgets (RES-7, DEV-7): per collar and per owner account, counted in requests,
 * readings and bytes over a minute and an hour, in memory per instance like the other
 * limits (decision 0002). Every path charges them: a collar's key and an owner's or admin's
 * token over HTTP, and MQTT. An upload is let through while every window it falls in has room
 * (the one that fills a window still goes: a list is never split), and is refused whole,
 * uncounted, otherwise. Refusals are logged at most once a minute per collar and per account,
 * with how many were left out, and told to the alerts (the owner's "Readings refused" notice).
 *
 * The quota counts the readings an account keeps: the devices' counters (written in the
 * ingest transaction), summed per account and read again at most once a minute, plus what
 * this instance stored since.
 */
export class IngestBudget {
  private readonly collar: Window[];
  private readonly account: Window[];
  private readonly logged = new OncePerMinute();
  /** Collars ('c:') and accounts ('a:') refused lately: their refusals are repeats. */
  private readonly stretches = new RefusalStretches();
  private readonly stored = new Map<string, { n: number; readAt: number }>();
  /** The account each collar's last upload was charged to (its owner as ingest read it). */
  private readonly accountOf = new Map<string, string>();

  constructor(
    private readonly o: {
      multiplier: number;
      quota: number;
      log: Pick<FastifyBaseLogger, 'warn'>;
      /** Tells the collar's owner (AlertService, at most once a day per collar). */
      notices?: { tellOverBudget(deviceUuid: string, why: OverBudget): Promise<unknown> };
    },
  ) {
    const m = o.multiplier;
    this.collar = [
      {
        limit: new FixedWindowLimit(Math.ceil(INGEST_BUDGET.collar.requestsPerMinute * m), MINUTE),
        weight: () => 1,
      },
      ...windows(m, INGEST_BUDGET.collar),
    ];
    this.account = windows(m, INGEST_BUDGET.account);
  }

  /**
   * Refuses at once (429) a collar whose budget, or whose owner account's upload rate, is
   * already spent, charging nothing: called before an upload is parsed, so a flood, even one
   * spread over many collars of one account, costs little more than its refusals. The owner
   * is `accountId` when the caller read it, else the account this collar's last upload was
   * charged to (until `forgetCollar`). The quota is left to `chargeAccount`, which reads the
   * owner in the transaction.
   */
  checkCollar(deviceUuid: string, now: number, accountId?: string | null): void {
    const wait = take(this.collar, deviceUuid, 0, 0, now, false);
    if (wait > 0) throw this.refused('collar', deviceUuid, deviceUuid, wait, now, COLLAR_REFUSAL);
    // An owner the caller read (null: none) is the owner; else the one last charged, if any.
    const account = accountId !== undefined ? accountId : this.accountOf.get(deviceUuid);
    if (account === null) return;
    if (account === undefined) return;
    const accountWait = take(this.account, account, 0, 0, now, false);
    if (accountWait > 0)
      throw this.refused('account', account, deviceUuid, accountWait, now, ACCOUNT_REFUSAL);
  }

  /**
   * The collar changed hands or may no longer post: its last account is not assumed any more.
   * Without a collar: none is (events about collars may have been missed).
   */
  forgetCollar(deviceUuid?: string): void {
    if (deviceUuid === undefined) this.accountOf.clear();
    else this.accountOf.delete(deviceUuid);
  }

  /** Charges an upload to its collar, or throws 429 with Retry-After (nothing charged). */
  chargeCollar(deviceUuid: string, readings: number, bytes: number, now: number): void {
    const wait = take(this.collar, deviceUuid, readings, bytes, now);
    if (wait === 0) return;
    throw this.refused('collar', deviceUuid, deviceUuid, wait, now, COLLAR_REFUSAL);
  }

  /**
   * Charges an upload to its collar's owner, or answers the 429 that refuses it (nothing
   * charged): over the account's rate, or over its quota of readings kept. `storedKnown`
   * must have been called for the account first.
   */
  chargeAccount(
    accountId: string,
    deviceUuid: string,
    readings: number,
    bytes: number,
    now: number,
  ): BudgetRefusal | null {
    if (this.accountOf.get(deviceUuid) !== accountId) {
      if (this.accountOf.size >= STORED_CACHE_MAX) this.accountOf.clear();
      this.accountOf.set(deviceUuid, accountId);
    }
    if ((this.stored.get(accountId)?.n ?? 0) >= this.o.quota) {
      const refusal = quotaRefusal(this.o.quota);
      return this.refused('quota', accountId, deviceUuid, QUOTA_RETRY_SECONDS, now, refusal);
    }
    const wait = take(this.account, accountId, readings, bytes, now);
    if (wait === 0) return null;
    return this.refused('account', accountId, deviceUuid, wait, now, ACCOUNT_REFUSAL);
  }

  /** The accounts whose count of readings kept is unknown here or older than a minute. */
  staleAccounts(accountIds: Iterable<string>, now: number): string[] {
    const out: string[] = [];
    for (const id of accountIds) {
      const s = this.stored.get(id);
      if (!s || now - s.readAt >= STORED_TTL_MS) out.push(id);
    }
    return out;
  }

  /**
   * The readings kept per account, as just read from the database (an account absent: 0).
   * Past STORED_CACHE_MAX accounts, the counts read longest ago go, and only once they are
   * older than their minute: a count still fresh may belong to an account of the batch being
   * charged (staleAccounts left it out), which must not read as 0 and skip its quota.
   */
  storedKnown(accountIds: string[], counts: Map<string, number>, now: number): void {
    for (const id of accountIds) {
      // Moved to the end: the Map keeps the counts in the order they were read.
      this.stored.delete(id);
      this.stored.set(id, { n: counts.get(id) ?? 0, readAt: now });
    }
    for (const [id, s] of this.stored) {
      if (this.stored.size <= STORED_CACHE_MAX || now - s.readAt < STORED_TTL_MS) break;
      this.stored.delete(id);
    }
  }

  /** Accounts whose count of readings kept is in memory. */
  get accountsKnown(): number {
    return this.stored.size;
  }

  /** Readings this instance has just stored for an account. */
  addStored(accountId: string, n: number): void {
    const s = this.stored.get(accountId);
    if (s) s.n += n;
  }

  /**
   * The refusal to answer: repeated when its collar or account was refused before and its
   * Retry-After has not passed yet (answered after a delay over HTTP, RefusalDelay). Logged
   * in one line a minute per collar and per account, with the refusals left out before it.
   */
  private refused(
    scope: 'collar' | 'account' | 'quota',
    key: string,
    deviceUuid: string,
    wait: number,
    now: number,
    message: string,
  ): BudgetRefusal {
    const id = `${scope === 'collar' ? 'c' : 'a'}:${key}`;
    const repeated = this.stretches.repeated(id, now, wait);
    this.log(scope, id, key, deviceUuid, wait, now);
    return new BudgetRefusal(wait, message, repeated);
  }

  private log(
    scope: 'collar' | 'account' | 'quota',
    id: string,
    key: string,
    deviceUuid: string,
    wait: number,
    now: number,
  ): void {
    const suppressed = this.logged.take(id, now);
    if (suppressed === null) return;
    this.o.log.warn(
      {
        event: 'ingest.over_budget',
        scope,
        ...(scope === 'collar' ? {} : { account: key }),
        device: deviceUuid,
        retry_after_s: wait,
        suppressed,
      },
      scope === 'quota'
        ? 'readings refused: the account is over its storage quota'
        : `readings refused: the ${scope} is over its ingest budget`,
    );
    this.o.notices
      ?.tellOverBudget(deviceUuid, scope === 'quota' ? 'quota' : 'rate')
      .catch((err: unknown) => this.o.log.warn({ err }, 'over-budget notice not recorded'));
  }
}

/**
 * Seconds to wait (the longest of the windows that are full), or 0 after charging them all
 * (unless `charge` is false).
 */
function take(
  list: Window[],
  key: string,
  readings: number,
  bytes: number,
  now: number,
  charge = true,
): number {
  let wait = 0;
  for (const w of list) wait = Math.max(wait, w.limit.retryAfterSeconds(key, now));
  if (wait > 0 || !charge) return wait;
  for (const w of list) w.limit.hit(key, now, w.weight(readings, bytes));
  return 0;
}
