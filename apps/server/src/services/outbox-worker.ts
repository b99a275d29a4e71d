import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxRepository, OutboxRow } from '../repositories/outbox-repository.js';
import type { MailTransport } from './mail-transport.js';
import type { Metrics } from './metrics.js';
import { deadline } from './deadline.js';

/**
 * A mail is retried until it is this old: a mail-server outage of hours loses no alert, and
 * only a mail that could not be delivered for a whole day is given up (and logged as such).
 */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
const BATCH = 20;
/** How long a claimed row is this worker's; a worker that dies mid-send frees it then. */
export const CLAIM_LEASE_MS = 5 * 60 * 1000;
/**
 * A send that has not finished by then is given up (and retried later): well inside the
 * lease, so no other worker can take a row this one is still sending. The SMTP transport's
 * own connection, greeting and socket timeouts (10 s each) normally end it much sooner.
 */
export const SEND_DEADLINE_MS = 2 * 60 * 1000;

/** Retry after 5 s, 10 s, 20 s … capped at 10 minutes. */
export const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** (attempts - 1), 600_000);

/** What an SMTP failure says about the mail (nodemailer's `code`, `command`, `responseCode`). */
type SmtpError = { code?: string; command?: string; responseCode?: number; response?: string };
export type DeliveryFailure =
  /** The mail server refused this mail for its recipient (a 5xx after RCPT TO or DATA): final. */
  | 'recipient_refused'
  /**
   * The mail server refused this mail by policy or security (enhanced status 5.7.x after RCPT
   * TO or DATA: relaying denied, our sender blocked): it would refuse every mail so, until it
   * or SMTP_URL is mended; retried.
   */
  | 'policy'
  /** The mail server refused our login (535 …): its password changed, say; retried. */
  | 'authentication'
  /** No connection, a 5xx greeting, a timeout, a dropped line, a 4xx: retried. */
  | 'unavailable';

/**
 * A reply with enhanced status 5.7.x (RFC 3463: security or policy), e.g. "550 5.7.1 Relaying
 * denied": the server refuses our relay or sender, not this recipient, so every mail would
 * meet it.
 */
const POLICY_REFUSAL = /^5\d\d[ -]5\.7\.\d{1,3}\b/;

/**
 * Only a permanent answer (5xx, not 503 "bad sequence", not a 5.7.x policy refusal) to the
 * mail's own recipient or content is final: no retry would change it. Everything before that, a refused connection, a
 * 554 greeting, a failed login, a timeout, a refused sender, says nothing about the mail and
 * is an outage like any other, retried with backoff until the mail server takes the mail.
 */
export function classifyFailure(err: unknown): DeliveryFailure {
  const e = (err ?? {}) as SmtpError;
  const code = e.responseCode ?? 0;
  if (
    (e.command === 'RCPT TO' || e.command === 'DATA') &&
    code >= 500 &&
    code < 600 &&
    code !== 503
  )
    return POLICY_REFUSAL.test(e.response ?? '') ? 'policy' : 'recipient_refused';
  if (e.code === 'EAUTH' || e.code === 'ENOAUTH' || /^AUTH\b/.test(e.command ?? ''))
    return 'authentication';
  return 'unavailable';
}

/**
 * Why a mail was given up, as the Admin Portal shows it: the mail server's own answer to it
 * ("550 5.1.1 <ann@example.com>: user unknown") when it refused the recipient, else that a day
 * of retries ran out, with the last failure. One line, credentials in a URL removed (an error
 * never carries the SMTP password, but a URL in one is cut to its host all the same).
 */
export function givenUpReason(err: unknown, refused: boolean): string {
  const e = (err ?? {}) as SmtpError & { message?: unknown };
  const said = typeof e.response === 'string' && e.response.trim() !== '' ? e.response : e.message;
  const answer = oneLineAnswer(typeof said === 'string' ? said : '');
  return refused ? answer : `gave up after a day of retries (last: ${answer})`;
}

/** A mail server's answer or an error's message as one line of at most 300 characters. */
export function oneLineAnswer(said: string): string {
  const line = said
    .replace(/\s+/g, ' ')
    .replace(/\/\/[^\s/@]*@/g, '//')
    .trim()
    .slice(0, 300);
  return line === '' ? 'no answer' : line;
}

/**
 * Delivers the outbox rows of one channel (mail here; pushes in push-worker.ts). Each row is
 * claimed (a lease, see OutboxRepository.claim) just before it is sent, so several instances
 * on one database send it once. A row is marked sent only after it was accepted, so a crash in
 * between resends it (at-least-once, never lost): at once when this instance starts again (its
 * own claims of this channel are released first), else when the lease ends. stop() lets the row
 * being sent finish and starts no other.
 */
export abstract class ClaimingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  // Idle until start(): kick() alone never delivers (tests drive drain() by hand).
  private stopped = true;
  /** Set by stop(): a drain in progress finishes its current row and takes no other. */
  private stopRequested = false;
  private kickedWhileRunning = false;
  /** Set once this instance's claims left from before a restart are released. */
  private released = false;

  constructor(
    protected readonly outbox: OutboxRepository,
    protected readonly log: FastifyBaseLogger,
    private readonly channel: 'mail' | 'push',
    private readonly intervalMs: number,
    protected readonly now: () => Date,
    /** This server instance's name (DATA_DIR/instance-id): its claims carry it. */
    protected readonly instance: string,
    /** Rows sent at once. */
    private readonly concurrency = 1,
  ) {}

  /** Sends one claimed row; answers whether it was delivered (false: retried or given up). */
  protected abstract deliver(row: OutboxRow, lease: string): Promise<boolean>;

  /**
   * Makes the rows of this channel this instance had claimed before a crash or kill due now;
   * the first drain after start() does it. Answers how many there were.
   */
  async releaseOwnClaims(): Promise<number> {
    const n = await this.outbox.releaseClaims(
      this.instance,
      this.now().toISOString(),
      this.channel,
    );
    this.released = true;
    // Two live servers with one id (a DATA_DIR cloned from a snapshot) would free each other's
    // claims and send twice: the id in the log lets an operator see such a clone.
    this.log.info(
      { event: 'outbox.instance', channel: this.channel, instance: this.instance },
      `${this.channel} worker started: its claims carry this instance id (DATA_DIR/instance-id, never to be shared by two live servers)`,
    );
    if (n > 0)
      this.log.warn(
        { released: n, channel: this.channel, instance: this.instance },
        `${this.channel} claimed before a restart and not marked sent is delivered now (possibly again)`,
      );
    return n;
  }

  start(): void {
    this.stopped = false;
    this.stopRequested = false;
    this.schedule(0);
  }

  /** Deliver now rather than at the next tick (after a commit that enqueued a row). */
  kick(): void {
    if (this.stopped) return;
    // A kick during a drain is not lost: that drain goes round once more when it ends.
    if (this.running) this.kickedWhileRunning = true;
    else this.schedule(0);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.running = (this.released ? Promise.resolve(0) : this.releaseOwnClaims())
      .then(() => this.drain())
      .then(
        () => undefined,
        (err) => this.log.error({ err, channel: this.channel }, 'outbox delivery failed'),
      );
    await this.running;
    this.running = undefined;
    const again = this.kickedWhileRunning;
    this.kickedWhileRunning = false;
    if (!this.stopped) this.schedule(again ? 0 : this.intervalMs);
  }

  /**
   * Delivers every due row; returns how many were sent. Exposed for tests. Up to `concurrency`
   * rows at once (pushes: one push service that hangs holds up only its own).
   */
  async drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await this.outbox.due(this.now().toISOString(), BATCH, this.channel);
      if (rows.length === 0) return sent;
      let claimed = 0;
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < rows.length; i = next++) {
          // Between rows, never in the middle of one.
          if (this.stopRequested) return;
          const row = rows[i]!;
          const lease = new Date(this.now().getTime() + CLAIM_LEASE_MS).toISOString();
          if (!(await this.outbox.claim(row, lease, this.instance))) continue; // another worker has it
          claimed++;
          if (await this.deliver(row, lease)) sent++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.concurrency, rows.length) }, lane));
      if (this.stopRequested) return sent;
      // A full batch all taken by others: the rows behind it are someone else's too for now.
      if (rows.length < BATCH || claimed === 0) return sent;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/** Delivers the outbox's mail through the mail transport (SMTP, or .eml files). */
export class OutboxWorker extends ClaimingWorker {
  constructor(
    outbox: OutboxRepository,
    private readonly transport: MailTransport,
    log: FastifyBaseLogger,
    private readonly domain: string,
    intervalMs = 1_000,
    now: () => Date = () => new Date(),
    private readonly metrics?: Metrics,
    instance: string = randomUUID(),
  ) {
    super(outbox, log, 'mail', intervalMs, now, instance);
  }

  protected async deliver(row: OutboxRow, lease: string): Promise<boolean> {
    const limit = deadline(SEND_DEADLINE_MS, 'the mail server did not finish in time');
    try {
      const { location } = await Promise.race([
        this.transport.send({
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body ?? undefined,
          messageId: `<${row.idempotency_key.replace(/[^A-Za-z0-9._-]/g, '.')}@${this.domain}>`,
        }),
        limit.promise,
      ]);
      if (!(await this.outbox.markSent(row.id, this.now().toISOString(), lease)))
        this.log.warn({ mailId: row.id }, 'mail sent after its claim lapsed');
      this.metrics?.mail('sent');
      this.log.info(
        { mailId: row.id, ...(location ? { file: location } : {}) },
        location ? 'mail written to the outbox folder' : 'mail sent',
      );
      return true;
    } catch (err) {
      const attempts = row.attempts + 1;
      const failure = classifyFailure(err);
      const refused = failure === 'recipient_refused';
      const expired = this.now().getTime() - Date.parse(row.created_at) >= GIVE_UP_AFTER_MS;
      const failed = refused || expired;
      const next = new Date(this.now().getTime() + retryDelayMs(attempts)).toISOString();
      await this.outbox.markRetry(
        row.id,
        lease,
        attempts,
        next,
        (err as Error).message,
        failed ? { at: this.now().toISOString(), reason: givenUpReason(err, refused) } : null,
      );
      this.metrics?.mail(failed ? 'given_up' : 'failed');
      const { responseCode, command } = err as SmtpError;
      this.log[failed ? 'error' : 'warn'](
        {
          mailId: row.id,
          attempts,
          failed,
          failure,
          ...(responseCode ? { responseCode } : {}),
          ...(command ? { command } : {}),
          ...(failed ? {} : { nextAttemptAt: next }),
          err: (err as Error).message,
        },
        refused
          ? 'mail refused for its recipient by the mail server: given up, not retried'
          : expired
            ? 'mail given up after a day of failed deliveries'
            : failure === 'authentication'
              ? 'mail server refused the login: mail retried later (check SMTP_URL)'
              : failure === 'policy'
                ? 'mail server refused the mail by policy (5.7.x), as it would every mail: retried later (check SMTP_URL, the sender address and relay permissions)'
                : 'mail delivery failed: retried later',
      );
      return false;
    } finally {
      limit.cancel();
    }
  }
}
