import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import {
  EventBusUnavailableError,
  LocalEventBus,
  busPayloads,
  type BusItem,
  type BusMessage,
} from './event-bus.js';

/** How long start-up waits for Redis before the server refuses to start. */
const START_TIMEOUT_MS = 5_000;
/**
 * Redis has no NOTIFY-like size limit, but a subscriber that falls far behind is cut off by
 * the server (client-output-buffer-limit pubsub): a large batch goes as several messages.
 */
const MAX_PAYLOAD = 64 * 1024;
/** Both connections are probed this often; one that does not answer in time is replaced. */
const PING_MS = 15_000;
const PING_TIMEOUT_MS = 5_000;
const QUIT_TIMEOUT_MS = 1_000;
const RESUBSCRIBE_MS = 1_000;

/**
 * The channel: `pawguard_events`, plus the PostgreSQL schema as for LISTEN/NOTIFY, plus the
 * database number from REDIS_URL. Redis delivers a PUBLISH to every subscriber on the server
 * whatever database they selected, so two deployments sharing one Redis are kept apart by
 * giving them different database numbers, as they would for keys.
 */
export function redisChannel(schema: string | undefined, db: number): string {
  return `pawguard_events${schema ? `_${schema}` : ''}${db ? `:${db}` : ''}`.toLowerCase();
}

/** REDIS_URL without its user name and password, for messages and logs. */
export function redisAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'REDIS_URL';
  }
}

/**
 * Several server processes sharing one Redis (REDIS_URL), on PostgreSQL or on SQLite: as
 * PgEventBus, each delivers its own events at once and PUBLISHes them to the others; each
 * SUBSCRIBEs on a connection of its own (a subscribed connection can send nothing else), and
 * both connections are probed every 15 s. ioredis reconnects with its own backoff; after the
 * subscriber was lost and regained, the events of the gap may be missing, so this instance's
 * streams get `resync` and so do the other instances'. A PUBLISH that fails is not queued for
 * later: the others get a `resync` once the publishing connection is back instead.
 */
export class RedisEventBus extends LocalEventBus {
  /** Also in the connections' names (CLIENT LIST), to tell the instances apart. */
  readonly instance = randomUUID();
  readonly channel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly startTimeoutMs: number;
  private subscribed = false;
  private closed = false;
  /** A PUBLISH failed since the publisher was last ready: the others are owed a resync. */
  private unsent = false;
  /** The subscriber's loss was logged; cleared when it is back. */
  private lost = false;
  private ping: NodeJS.Timeout | null = null;
  private firstSubscription: (() => void) | null = null;

  constructor(
    private readonly url: string,
    schema: string | undefined,
    private readonly log: FastifyBaseLogger,
    options: { startTimeoutMs?: number } = {},
  ) {
    super();
    this.startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
    // Nothing waits for a connection that is down: a command then fails at once (and is
    // made up for by a resync) rather than reaching the others minutes late.
    const common = {
      lazyConnect: true,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
    };
    this.publisher = new Redis(url, {
      ...common,
      // A Redis that stops answering must not let PUBLISHes pile up in memory until the probe
      // replaces the connection: each fails after 2 s (and the others resync later).
      commandTimeout: 2_000,
      connectionName: `pawguard-events-pub-${this.instance}`,
    });
    // Subscribed again by hand after a reconnect, so the resync follows the SUBSCRIBE.
    this.subscriber = new Redis(url, {
      ...common,
      autoResubscribe: false,
      connectionName: `pawguard-events-sub-${this.instance}`,
    });
    this.channel = redisChannel(schema, this.subscriber.options.db ?? 0);

    this.subscriber.on('message', (channel: string, payload: string) => {
      if (channel !== this.channel) return;
      try {
        const { from, messages } = JSON.parse(payload) as { from: string; messages: BusItem[] };
        if (from === this.instance) return;
        for (const m of messages) this.deliver(m);
      } catch (err) {
        this.log.warn({ err }, 'live event from another instance could not be read');
      }
    });
    this.subscriber.on('ready', () => void this.listen());
    this.subscriber.on('close', () => {
      if (this.closed || !this.subscribed || this.lost) return;
      this.lost = true;
      this.log.warn('live events connection to Redis lost; reconnecting');
    });
    this.publisher.on('ready', () => {
      if (!this.unsent || this.closed) return;
      this.unsent = false;
      this.send([{ audience: [], event: { type: 'resync' } }]);
    });
    // ioredis reports each failed attempt here; the loss itself is logged once, above.
    for (const c of [this.publisher, this.subscriber])
      c.on('error', (err: Error) => {
        if (this.subscribed && !this.closed)
          this.log.debug({ err }, 'live events connection to Redis: error');
      });
  }

  /** Connects both connections, or fails naming REDIS_URL after a few seconds. */
  async start(): Promise<void> {
    let lastError: Error | undefined;
    const remember = (err: Error) => (lastError = err);
    this.publisher.on('error', remember);
    this.subscriber.on('error', remember);
    // ioredis keeps retrying with its backoff; start-up waits only so long for the first answer.
    const subscribedOnce = new Promise<void>((resolve) => (this.firstSubscription = resolve));
    const publisherReady = new Promise<void>((resolve) => this.publisher.once('ready', resolve));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.startTimeoutMs);
    });
    this.publisher.connect().catch(() => undefined);
    this.subscriber.connect().catch(() => undefined);
    try {
      const outcome = await Promise.race([Promise.all([subscribedOnce, publisherReady]), deadline]);
      if (outcome === 'late') {
        await this.close();
        const why = lastError ? ` (${lastError.message})` : '';
        const wait =
          this.startTimeoutMs >= 1000
            ? `${Math.round(this.startTimeoutMs / 1000)} s`
            : `${this.startTimeoutMs} ms`;
        throw new EventBusUnavailableError(
          `REDIS_URL: Redis at ${redisAddress(this.url)} did not answer within ${wait}${why}. ` +
            'Live events between instances go through it: start Redis, correct REDIS_URL or unset it.',
        );
      }
    } finally {
      clearTimeout(timer);
      this.publisher.off('error', remember);
      this.subscriber.off('error', remember);
    }
    this.ping ??= setInterval(() => void this.probe(), PING_MS);
    this.ping.unref();
  }

  /** On every (re)connection of the subscriber: SUBSCRIBE, then resync if it was a reconnection. */
  private async listen(): Promise<void> {
    if (this.closed) return;
    try {
      await this.subscriber.subscribe(this.channel);
    } catch (err) {
      if (this.closed) return;
      this.log.warn({ err }, 'live events: SUBSCRIBE on Redis failed; trying again');
      setTimeout(() => {
        if (this.subscriber.status === 'ready') void this.listen();
      }, RESUBSCRIBE_MS).unref();
      return;
    }
    if (!this.subscribed) {
      this.subscribed = true;
      this.firstSubscription?.();
      this.firstSubscription = null;
      return;
    }
    if (this.lost) this.log.info('live events connection to Redis back; streams resync');
    this.lost = false;
    const resync: BusMessage = { audience: [], event: { type: 'resync' } };
    this.deliver(resync);
    this.send([resync]);
  }

  private async probe(): Promise<void> {
    await Promise.all(
      [this.publisher, this.subscriber].map(async (c) => {
        if (c.status !== 'ready' || this.closed) return;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), PING_TIMEOUT_MS);
          timer.unref();
        });
        try {
          await Promise.race([c.ping(), timeout]);
        } catch (err) {
          if (this.closed) return;
          this.log.warn({ err }, 'live events connection to Redis stopped answering; replacing it');
          c.disconnect(true);
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  /**
   * Whether Redis answers now (readiness): both connections ready and a PING answered. The
   * readiness probe bounds how long the PING is waited for.
   */
  async answers(): Promise<boolean> {
    if (this.closed || this.publisher.status !== 'ready' || this.subscriber.status !== 'ready')
      return false;
    return this.publisher.ping().then(
      () => true,
      () => false,
    );
  }

  override publish(messages: BusItem[]): void {
    super.publish(messages);
    this.send(messages);
  }

  private send(messages: BusItem[]): void {
    if (messages.length === 0 || this.closed) return;
    for (const payload of busPayloads(this.instance, messages, MAX_PAYLOAD)) {
      this.publisher.publish(this.channel, payload).catch((err: unknown) => {
        if (this.closed || this.unsent) return;
        this.unsent = true;
        // Once per outage, not once per reading: the others get a resync when it is back.
        this.log.warn({ err }, 'live events not sent to other instances; they resync later');
      });
    }
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.ping) clearInterval(this.ping);
    this.ping = null;
    await Promise.all([quit(this.publisher), quit(this.subscriber)]);
    await super.close();
  }
}

/** QUIT when the connection is up (the server closes it cleanly), else drop it; never hangs. */
async function quit(c: Redis): Promise<void> {
  if (c.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      c.quit().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, QUIT_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
  }
  // Also stops a reconnection that is pending or under way.
  if (c.status !== 'end') c.disconnect();
}
