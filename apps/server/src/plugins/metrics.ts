import http from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/env.js';
import type { Metrics } from '../services/metrics.js';
import { boundPort, listenOn } from '../services/listening.js';

const NOT_SERVED = 'Metrics are not served on this port';
const TOKEN_REQUIRED = 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether an Authorization header carries the token; compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * The metrics listener on METRICS_PORT: GET /metrics and nothing else, apart from the public
 * port, so that a firewall or a private network can keep it to the Prometheus server. It asks
 * for METRICS_TOKEN too when that is set.
 */
export class MetricsListener {
  private server: http.Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    private readonly token: string | undefined,
  ) {}

  async listen(port: number, host: string): Promise<number> {
    const server = http.createServer((req, res) => void this.answer(req, res));
    server.requestTimeout = 10_000;
    server.headersTimeout = 5_000;
    this.server = server;
    return listenOn(server, port, host);
  }

  get port(): number | null {
    return boundPort(this.server);
  }

  /** The address it listens on (null when not listening). */
  get address(): string | null {
    const a = this.server?.address();
    return a && typeof a === 'object' ? a.address : null;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, body: string, type = 'application/json; charset=utf-8') => {
      res.writeHead(status, {
        'content-type': type,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
      return send(404, JSON.stringify({ error: 'Only GET /metrics is served on this port' }));
    if (this.token !== undefined && !bearerMatches(req.headers.authorization, this.token))
      return send(401, JSON.stringify({ error: TOKEN_REQUIRED }));
    try {
      send(200, await this.metrics.text(), this.metrics.contentType);
    } catch {
      send(503, JSON.stringify({ error: 'The metrics could not be collected' }));
    }
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

/**
 * GET /metrics on the public port: served only behind METRICS_TOKEN, and only when there is no
 * METRICS_PORT (which then serves it alone). Otherwise it answers 404, so the web app's
 * catch-all never answers the path with a page.
 */
export function registerPublicMetrics(app: FastifyInstance, config: Config, metrics: Metrics) {
  const token = config.metricsPort === undefined ? config.metricsToken : undefined;
  app.get(
    '/metrics',
    { schema: { hide: true }, config: { auth: 'public' }, logLevel: 'warn' },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (token === undefined) return reply.code(404).send({ error: NOT_SERVED });
      if (!bearerMatches(request.headers.authorization, token))
        return reply.code(401).send({ error: TOKEN_REQUIRED });
      try {
        const text = await metrics.text();
        return reply.type(metrics.contentType).send(text);
      } catch (err) {
        request.log.error({ err }, 'metrics could not be collected');
        return reply.code(503).send({ error: 'The metrics could not be collected' });
      }
    },
  );
}
