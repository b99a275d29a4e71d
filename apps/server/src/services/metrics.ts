import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** How a reading reached the server. */
export type Transport = 'http' | 'mqtt';

/** Why a collar's upload was not stored (the same words over HTTP and MQTT). */
export type IngestRefusal =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'unknown_device'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'error';

/**
 * What the scrape reads from elsewhere when it happens (never on the hot path, never before
 * the server is built: the container passes functions of the stream hub and the MQTT endpoint,
 * which are built after the metrics they report to).
 */
export interface ScrapeSources {
  openStreams: () => number;
  mqttConnections: () => number;
  /**
   * Mail waiting to be delivered, when the oldest of it was queued (ISO) or null, and how much
   * was given up (refused for its recipient, or undeliverable for a day).
   */
  outbox: () => Promise<{ pending: number; oldest: string | null; failed: number }>;
  now: () => number;
}

/**
 * The server's figures in Prometheus' text format (GET /metrics). One registry per app, not
 * prom-client's global one: tests build several apps in one process, and each counts its own.
 * The hot path only adds to counters and histograms, with their label sets bound once here;
 * gauges of what is open (streams, connections, the outbox) are read when scraped.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly readings = new Counter({
    name: 'pawguard_readings_ingested_total',
    help: 'Readings acknowledged to collars (stored, or a repeat of a stored one), by transport',
    labelNames: ['transport'] as const,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'pawguard_ingest_refusals_total',
    help: 'Reading uploads refused (nothing stored), by transport and reason',
    labelNames: ['transport', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly batchSize = new Histogram({
    name: 'pawguard_ingest_batch_readings',
    help: 'Readings per ingest commit (group commit)',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000],
    registers: [this.registry],
  });
  private readonly commitSeconds = new Histogram({
    name: 'pawguard_ingest_commit_seconds',
    help: 'Time from the start of an ingest transaction until it is on disk',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly mails = new Counter({
    name: 'pawguard_mails_total',
    help: 'Mail delivery attempts, by outcome (sent, failed: will be retried, given_up: refused for its recipient or failing for a day)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly alertsOpened = new Counter({
    name: 'pawguard_alerts_opened_total',
    help: 'Alerts opened, by type and level (level "none" for battery and offline alerts)',
    labelNames: ['type', 'level'] as const,
    registers: [this.registry],
  });

  // Bound once: the hot path builds no label object per call.
  private readonly readingsBy = {
    http: this.readings.labels('http'),
    mqtt: this.readings.labels('mqtt'),
  };
  private readonly mailsBy = {
    sent: this.mails.labels('sent'),
    failed: this.mails.labels('failed'),
    given_up: this.mails.labels('given_up'),
  };

  constructor(opts: { defaultMetrics?: boolean; sources?: ScrapeSources } = {}) {
    // Present at 0 from the start, so that rate() and alerts see them before the first event.
    for (const c of [...Object.values(this.readingsBy), ...Object.values(this.mailsBy)]) c.inc(0);
    // The gauges' collect() runs with the gauge as `this`.
    const sources = () => opts.sources;
    new Gauge({
      name: 'pawguard_sse_streams_open',
      help: 'Live event streams (SSE) open on this instance',
      registers: [this.registry],
      collect() {
        this.set(sources()?.openStreams() ?? 0);
      },
    });
    new Gauge({
      name: 'pawguard_mqtt_connections',
      help: 'Collars connected over MQTT to this instance',
      registers: [this.registry],
      collect() {
        this.set(sources()?.mqttConnections() ?? 0);
      },
    });
    // One query fills both gauges per scrape. While the database does not answer, they keep
    // their last values and the scrape goes on; the up/down of the database is the health
    // endpoints' to tell.
    let outbox:
      Promise<{ pending: number; oldest: string | null; failed: number } | null> | undefined;
    const readOutbox = () =>
      (outbox ??= (
        sources()?.outbox() ?? Promise.resolve({ pending: 0, oldest: null, failed: 0 })
      ).catch(() => null));
    new Gauge({
      name: 'pawguard_outbox_pending',
      help: 'Mail in the outbox waiting to be delivered (all instances: it is the database)',
      registers: [this.registry],
      async collect() {
        const r = await readOutbox();
        if (r) this.set(r.pending);
      },
    });
    new Gauge({
      name: 'pawguard_outbox_failed',
      help: 'Mail given up and kept in the outbox: refused for its recipient by the mail server (5xx after RCPT or DATA), or undeliverable for a day',
      registers: [this.registry],
      async collect() {
        const r = await readOutbox();
        if (r) this.set(r.failed);
      },
    });
    new Gauge({
      name: 'pawguard_outbox_oldest_age_seconds',
      help: 'Age of the oldest mail waiting in the outbox (0 when none waits)',
      registers: [this.registry],
      async collect() {
        const r = await readOutbox();
        outbox = undefined;
        const now = sources()?.now() ?? Date.now();
        if (r) this.set(r.oldest ? Math.max(0, (now - Date.parse(r.oldest)) / 1000) : 0);
      },
    });
    // Event-loop lag, memory, CPU, handles: prom-client's own, on this registry.
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  readingsIngested(transport: Transport, count: number): void {
    this.readingsBy[transport].inc(count);
  }

  ingestRefused(transport: Transport, reason: IngestRefusal): void {
    this.refusals.inc({ transport, reason });
  }

  /** One ingest commit: how many readings it carried and how long it took (ms). */
  commit(readings: number, ms: number): void {
    this.batchSize.observe(readings);
    this.commitSeconds.observe(ms / 1000);
  }

  mail(outcome: 'sent' | 'failed' | 'given_up'): void {
    this.mailsBy[outcome].inc();
  }

  alertOpened(type: string, level: string | null): void {
    this.alertsOpened.inc({ type, level: level ?? 'none' });
  }

  /** The text a Prometheus server scrapes. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** The reason a refused HTTP upload counts under, by its status code. */
export function refusalFor(status: number): IngestRefusal {
  switch (status) {
    case 400:
      return 'invalid';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
      return 'unknown_device';
    case 413:
      return 'too_large';
    case 415:
      return 'invalid';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return 'error';
  }
}
