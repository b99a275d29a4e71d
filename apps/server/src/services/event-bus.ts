import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { StreamEvent } from '@pawguard/shared';

/** An event for the live stream and who may see it: its owners (admins see everything). */
export interface BusMessage {
  audience: string[];
  event: StreamEvent;
}
export type BusListener = (message: BusMessage) => void;

/** Carries live events from where they happen to every stream, on this instance or others. */
export interface EventBus {
  publish(messages: BusMessage[]): void;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

/** One server process: events go straight to its own streams. */
export class LocalEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();

  publish(messages: BusMessage[]): void {
    for (const m of messages) this.deliver(m);
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected deliver(message: BusMessage): void {
    for (const listener of this.listeners) listener(message);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** NOTIFY payloads must stay under 8,000 bytes. */
const MAX_PAYLOAD = 7_500;
const RECONNECT_MS = 1_000;

/**
 * Several server processes on one PostgreSQL: each delivers its own events at once and sends
 * them to the others with NOTIFY on a channel named after the schema; each LISTENs on a
 * connection of its own. After that connection is lost and regained, its streams are told to
 * resync (events of the gap may be missing).
 */
export class PgEventBus extends LocalEventBus {
  private readonly instance = randomUUID();
  private readonly channel: string;
  private client: pg.Client | null = null;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    schema: string | undefined,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
    this.channel = `pawguard_events${schema ? `_${schema}` : ''}`.toLowerCase();
  }

  async start(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
    });
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      try {
        const { from, messages } = JSON.parse(n.payload) as {
          from: string;
          messages: BusMessage[];
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
    await client.connect();
    await client.query(`LISTEN "${this.channel}"`);
    this.client = client;
  }

  private reconnect(lost: pg.Client): void {
    if (this.closed || this.client !== lost) return;
    this.client = null;
    const retry = () => {
      if (this.closed) return;
      this.start().then(
        () => this.deliver({ audience: [], event: { type: 'resync' } }),
        () => setTimeout(retry, RECONNECT_MS).unref(),
      );
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  override publish(messages: BusMessage[]): void {
    super.publish(messages);
    const client = this.client;
    if (!client || messages.length === 0) return;
    for (const payload of this.payloads(messages)) {
      // In order, one at a time: a burst of events never opens a burst of queries.
      this.queue = this.queue
        .then(() => client.query('SELECT pg_notify($1, $2)', [this.channel, payload]))
        .catch((err: unknown) => this.log.warn({ err }, 'live event not sent to other instances'));
    }
  }

  /** The messages as NOTIFY payloads, each under the size limit. */
  private *payloads(messages: BusMessage[]): Generator<string> {
    let batch: BusMessage[] = [];
    let size = 0;
    const wrap = (ms: BusMessage[]) => JSON.stringify({ from: this.instance, messages: ms });
    for (const m of messages) {
      const len = JSON.stringify(m).length + 1;
      if (len + 80 > MAX_PAYLOAD) continue; // never happens for our events; skipped, not split
      if (size + len + 80 > MAX_PAYLOAD && batch.length) {
        yield wrap(batch);
        batch = [];
        size = 0;
      }
      batch.push(m);
      size += len;
    }
    if (batch.length) yield wrap(batch);
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
    await super.close();
  }
}
