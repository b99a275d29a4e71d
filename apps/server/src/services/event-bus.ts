import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { StreamEvent } from '@pawguard/shared';

/** An event for the live stream and who may see it: its owners (admins see everything). */
export interface BusMessage {
  audience: string[];
  event: StreamEvent;
  /** The device's credentials changed (released, removed, re-keyed): caches and sessions end. */
  credentials?: boolean;
  /** For the audience alone, admins included only when in it (a person's notifications). */
  personal?: boolean;
}
/**
 * Who may see live events changed: the streams of these sessions (logout) or of these users (a
 * role changed, an account deleted) end on every instance as soon as this arrives, rather than
 * at the next heartbeat's session check. It never reaches a browser.
 */
export interface AccessMessage {
  access: { sessions?: string[]; users?: string[] };
}
/** What the bus carries: live events, and the access changes that end streams. */
export type BusItem = BusMessage | AccessMessage;
export const isAccessMessage = (m: BusItem): m is AccessMessage => 'access' in m;
export type BusListener = (message: BusItem) => void;

/** Carries live events from where they happen to every stream, on this instance or others. */
export interface EventBus {
  publish(messages: BusItem[]): void;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

/** The bus named in the configuration could not be reached at start: the server does not start. */
export class EventBusUnavailableError extends Error {}

/** One server process: events go straight to its own streams. */
export class LocalEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();

  publish(messages: BusItem[]): void {
    for (const m of messages) this.deliver(m);
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected deliver(message: BusItem): void {
    for (const listener of this.listeners) listener(message);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** NOTIFY payloads must stay under 8,000 bytes (bytes, not characters); 7,500 leaves room. */
const MAX_PAYLOAD = 7_500;
const RECONNECT_MS = 1_000;
/** The LISTEN connection is probed this often; one that does not answer in time is replaced. */
const PING_MS = 15_000;
const PING_TIMEOUT_MS = 5_000;

/** Sends one NOTIFY (through the application's pool, not the LISTEN connection). */
export type Notify = (channel: string, payload: string) => Promise<void>;

/**
 * Several server processes on one PostgreSQL: each delivers its own events at once and sends
 * them to the others with NOTIFY on a channel named after the schema; each LISTENs on a
 * connection of its own, probed every 15 s. After that connection was lost and regained, the
 * events of the gap may be missing: this instance's streams get `resync`, and so do the
 * other instances' (a NOTIFY of its own), since what this one sent may not have reached them
 * either.
 */
export class PgEventBus extends LocalEventBus {
  private readonly instance = randomUUID();
  private readonly channel: string;
  private client: pg.Client | null = null;
  private closed = false;
  private ping: NodeJS.Timeout | null = null;
  /** The NOTIFYs of this instance, in the order they were published. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly url: string,
    schema: string | undefined,
    private readonly notify: Notify,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
    this.channel = `pawguard_events${schema ? `_${schema}` : ''}`.toLowerCase();
  }

  async start(): Promise<void> {
    // A deadline for connecting and for each query (LISTEN, the probes): a server that takes
    // the connection and never answers is given up on, at start-up and when reconnecting.
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      connectionTimeoutMillis: PING_TIMEOUT_MS,
      query_timeout: PING_TIMEOUT_MS,
    });
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      try {
        const { from, messages } = JSON.parse(n.payload) as {
          from: string;
          messages: BusItem[];
        };
        if (from === this.instance) return;
        for (const m of messages) this.deliver(m);
      } catch (err) {
        this.log.warn({ err }, 'live event from another instance could not be read');
      }
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'live events connection to PostgreSQL lost; reconnecting');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      void client.end().catch(() => undefined);
      throw new EventBusUnavailableError(
        `Live events over PostgreSQL (LISTEN on DATABASE_URL) could not start: ${(err as Error).message}`,
      );
    }
    this.client = client;
    this.ping ??= setInterval(() => void this.probe(), PING_MS);
    this.ping.unref();
  }

  private async probe(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no answer')), PING_TIMEOUT_MS).unref(),
    );
    try {
      await Promise.race([client.query('SELECT 1'), timeout]);
    } catch (err) {
      this.log.warn(
        { err },
        'live events connection to PostgreSQL stopped answering; replacing it',
      );
      this.reconnect(client);
      void client.end().catch(() => undefined);
    }
  }

  private reconnect(lost: pg.Client): void {
    if (this.closed || this.client !== lost) return;
    this.client = null;
    const retry = () => {
      if (this.closed) return;
      this.start().then(
        () => {
          const resync: BusMessage = { audience: [], event: { type: 'resync' } };
          this.deliver(resync);
          this.send([resync]);
        },
        () => setTimeout(retry, RECONNECT_MS).unref(),
      );
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  override publish(messages: BusItem[]): void {
    super.publish(messages);
    this.send(messages);
  }

  private send(messages: BusItem[]): void {
    if (messages.length === 0 || this.closed) return;
    for (const payload of busPayloads(this.instance, messages, MAX_PAYLOAD)) {
      // One NOTIFY after another: sent side by side on the pool's connections, they could
      // reach the other instances in another order (an alert before the reading it came from).
      this.sending = this.sending.then(() => this.notifyInTime(payload));
    }
  }

  /** One NOTIFY, given a few seconds: a stuck one is logged and left, and the next ones go. */
  private async notifyInTime(payload: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('NOTIFY did not finish in time')), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.notify(this.channel, payload), late]);
    } catch (err) {
      this.log.warn({ err }, 'live event not sent to other instances');
    } finally {
      clearTimeout(timer);
    }
  }

  override async close(): Promise<void> {
    this.closed = true;
    if (this.ping) clearInterval(this.ping);
    // What is still being sent gets a moment, never a hold on the shutdown.
    await Promise.race([this.sending, new Promise((r) => setTimeout(r, 2_000).unref())]);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await super.close();
  }
}

/**
 * `messages` from the instance `from` as payloads for the other instances, in order: as many
 * whole messages a payload as fit in `maxBytes` of UTF-8 (a pet's name in Cyrillic or
 * Japanese takes two or three bytes a character). A message too large for any payload goes
 * alone; none of ours comes near, and the broker's refusal is then logged.
 */
export function* busPayloads(
  from: string,
  messages: BusItem[],
  maxBytes: number,
): Generator<string> {
  const head = `{"from":${JSON.stringify(from)},"messages":[`;
  const overhead = Buffer.byteLength(head) + 2; // and the closing ]}
  let batch: string[] = [];
  let size = overhead;
  for (const m of messages) {
    const json = JSON.stringify(m);
    const bytes = Buffer.byteLength(json) + 1; // and its comma
    if (batch.length && size + bytes > maxBytes) {
      yield `${head}${batch.join(',')}]}`;
      batch = [];
      size = overhead;
    }
    batch.push(json);
    size += bytes;
  }
  if (batch.length) yield `${head}${batch.join(',')}]}`;
}
