import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { listen, openStream, ticketFor, until } from '../helpers/sse.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample in Prometheus' text format (0 when the series is not there yet). */
function sample(text: string, name: string, labels = ''): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let admin: SeededUser;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    admin = await seedUser(t, { role: 'admin' });
    owner = await seedUser(t);
  });
  afterAll(() => t.close());

  it('rejects a request without a token, or with a wrong one, with 401 and { error }', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789abcdef'), { authorization: TOKEN }]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: expect.stringMatching(/metrics token/) });
    }
  });

  it('counts readings stored over HTTP, each commit’s size and time, and refusals by reason', async () => {
    const c = await ownedCollar(t, admin, owner);
    const before = await scrape(t);
    const now = Date.now();
    const backlog = [3, 2, 1].map((m) => ({
      temperature: 25,
      humidity: 40,
      battery: 80,
      timestamp: new Date(now - m * 60_000).toISOString(),
    }));
    expect((await postAsCollar(t, c.device_id, c.device_key, backlog)).statusCode).toBe(201);
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, { temperature: 25, humidity: 40 }))
        .statusCode,
    ).toBe(201);
    expect(
      (await postAsCollar(t, c.device_id, 'x'.repeat(43), { temperature: 25, humidity: 40 }))
        .statusCode,
    ).toBe(401);
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, { temperature: 'hot', humidity: 40 }))
        .statusCode,
    ).toBe(400);
    const after = await scrape(t);
    const delta = (name: string, labels = '') =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta('pawguard_readings_ingested_total', 'transport="http"')).toBe(4);
    expect(delta('pawguard_readings_ingested_total', 'transport="mqtt"')).toBe(0);
    // Two uploads, two commits (one of 3 readings, one of 1).
    expect(delta('pawguard_ingest_batch_readings_count')).toBe(2);
    expect(delta('pawguard_ingest_batch_readings_sum')).toBe(4);
    expect(delta('pawguard_ingest_commit_seconds_count')).toBe(2);
    expect(delta('pawguard_ingest_commit_seconds_sum')).toBeGreaterThan(0);
    expect(
      delta('pawguard_ingest_refusals_total', 'transport="http",reason="unauthenticated"'),
    ).toBe(1);
    expect(delta('pawguard_ingest_refusals_total', 'transport="http",reason="invalid"')).toBe(1);
  });

  it('counts an alert opened by its level', async () => {
    const c = await ownedCollar(t, admin, owner);
    const before = await scrape(t);
    // 42 °C is far past the default critical threshold (105 °F).
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, { temperature: 42, humidity: 60 }))
        .statusCode,
    ).toBe(201);
    const after = await scrape(t);
    const opened = (text: string) =>
      ['WARNING', 'DANGER', 'CRITICAL'].reduce(
        (n, level) =>
          n + sample(text, 'pawguard_alerts_opened_total', `type="heat",level="${level}"`),
        0,
      );
    expect(opened(after) - opened(before)).toBe(1);
  });

  it('reads the outbox’s depth and the age of its oldest mail when scraped', async () => {
    const queued = new Date(t.clock.now().getTime() - 90_000).toISOString();
    await t.app.container.repos.outbox.enqueue(
      { idempotencyKey: `metrics-${Date.now()}`, to: 'a@example.com', subject: 's', text: 't' },
      queued,
    );
    const pending = await t.app.container.db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const text = await scrape(t);
    expect(sample(text, 'pawguard_outbox_pending')).toBe(Number(pending.n));
    expect(sample(text, 'pawguard_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('carries the process’s own figures: event-loop lag and memory', async () => {
    const text = await scrape(t);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^pawguard_sse_streams_open 0$/m);
    expect(text).toMatch(/^pawguard_mqtt_connections 0$/m);
  });

  it('counts the live streams open on this instance when scraped', async () => {
    const base = await listen(t);
    const stream = await openStream(base, await ticketFor(t, owner.token));
    try {
      expect(stream.status).toBe(200);
      await until(() => t.app.container.streams.size === 1);
      expect(sample(await scrape(t), 'pawguard_sse_streams_open')).toBe(1);
    } finally {
      stream.close();
    }
    await until(() => t.app.container.streams.size === 0);
    expect(sample(await scrape(t), 'pawguard_sse_streams_open')).toBe(0);
  });

  it('counts per app: another app in the same process starts from zero', async () => {
    const other = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      const mine = await scrape(t);
      const theirs = await scrape(other);
      expect(sample(mine, 'pawguard_readings_ingested_total', 'transport="http"')).toBeGreaterThan(
        0,
      );
      expect(sample(theirs, 'pawguard_readings_ingested_total', 'transport="http"')).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('mail delivery in the metrics', () => {
  it('counts each mail sent, each failed attempt (retried) and each given up', async () => {
    let answer: 'ok' | 'down' | 'refused' = 'ok';
    const t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN },
      buildOptions: {
        mailTransport: {
          kind: 'smtp',
          async send() {
            if (answer === 'down') throw new Error('connection refused');
            if (answer === 'refused')
              throw Object.assign(new Error('no such mailbox'), {
                responseCode: 550,
                command: 'RCPT TO',
              });
            return {};
          },
          close() {},
        },
      },
    });
    try {
      const queue = (key: string) =>
        t.app.container.repos.outbox.enqueue(
          { idempotencyKey: key, to: 'a@example.com', subject: 's', text: 't' },
          t.clock.now().toISOString(),
        );
      await queue('one');
      await t.app.container.outboxWorker.drain();
      answer = 'down';
      await queue('two');
      await t.app.container.outboxWorker.drain();
      answer = 'refused';
      t.clock.advance(60_000); // past the retry delay of 'two'
      await t.app.container.outboxWorker.drain();
      const text = await scrape(t);
      expect(sample(text, 'pawguard_mails_total', 'outcome="sent"')).toBe(1);
      expect(sample(text, 'pawguard_mails_total', 'outcome="failed"')).toBe(1);
      expect(sample(text, 'pawguard_mails_total', 'outcome="given_up"')).toBe(1);
      // The given-up mail stays in the outbox, and the scrape says how much there is.
      expect(sample(text, 'pawguard_outbox_failed')).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics without METRICS_TOKEN or METRICS_PORT', () => {
  it('is not served on the public port: 404 with { error }, not the web app', async () => {
    const t = await createTestApp();
    try {
      for (const headers of [{}, bearer(TOKEN)]) {
        const res = await t.app.inject({ url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
    } finally {
      await t.close();
    }
  });
});

describe('METRICS_PORT: a listener of its own', () => {
  it('serves GET /metrics there and nothing else, and not on the public port', async () => {
    const t = await createTestApp({ env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
    try {
      const port = t.app.metricsListener!.port!;
      const url = `http://127.0.0.1:${port}`;
      const ok = await fetch(`${url}/metrics`, { headers: bearer(TOKEN) });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toMatch(/^# HELP pawguard_readings_ingested_total /m);
      // The token is asked there too when it is set.
      const refused = await fetch(`${url}/metrics`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: expect.any(String) });
      const other = await fetch(`${url}/api/health`, { headers: bearer(TOKEN) });
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ error: expect.any(String) });
      // The public port keeps it to itself, token or not.
      expect((await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) })).statusCode).toBe(
        404,
      );
    } finally {
      await t.close();
    }
  });

  it('asks for no token when only METRICS_PORT is set, and closes with the app', async () => {
    const t = await createTestApp({ env: { METRICS_PORT: '0' } });
    // Loopback unless METRICS_HOST says otherwise: no token, and no other network reaches it.
    expect(t.app.metricsListener!.address).toBe('127.0.0.1');
    const port = t.app.metricsListener!.port!;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    await t.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('listens on METRICS_HOST when it is set', async () => {
    const t = await createTestApp({
      env: { METRICS_PORT: '0', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN },
    });
    try {
      expect(t.app.metricsListener!.address).toBe('0.0.0.0');
    } finally {
      await t.close();
    }
  });
});
