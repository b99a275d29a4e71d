import fp from 'fastify-plugin';
import type { Config } from '../config/env.js';
import { loggableDbError, migrateToLatest, openDatabase, type DbHandle } from '../db/index.js';
import { octal } from '../db/data-dir-lock.js';
import { createContainer, type Container } from '../container.js';
import { ensureFirstAdmin, resolveJwtSecret, resolveVapidKeys } from '../bootstrap.js';
import type { Clock } from '../services/clock.js';
import type { MailTransport } from '../services/mail-transport.js';
import type { RefusalDelayOptions } from '../services/refusal-delay.js';
import type { DeviceAuthenticator } from './auth.js';
import { deviceKeyAuthenticator } from './device-auth.js';
import { MetricsListener } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The open database (closed by the lifecycle plugin when this plugin opened it). */
    dbHandle: DbHandle;
    container: Container;
    /** The devices feature sets this to authenticate collars (`Authorization: Device <key>`). */
    deviceAuthenticator: DeviceAuthenticator | undefined;
    /** GET /metrics on METRICS_PORT (listening once the app is ready); null without it. */
    metricsListener: MetricsListener | null;
  }
}

export interface ServicesOptions {
  config: Config;
  /** An already open database (tests); otherwise opened from the config. */
  db?: DbHandle | undefined;
  clock: Clock;
  mailTransport?: MailTransport | undefined;
  busStartTimeoutMs?: number | undefined;
  refusalDelay?: RefusalDelayOptions | undefined;
}

/**
 * The database, migrated to the latest schema, and the services built on it (container.ts),
 * decorated on the root for every route: `app.config`, `app.dbHandle`, `app.container`. The
 * first admin exists and the event bus is started once it is registered; nothing else starts
 * before the server is ready (plugins/lifecycle.ts).
 */
export const services = fp<ServicesOptions>(
  async (app, opts) => {
    const { config, clock } = opts;
    const dbHandle =
      opts.db ?? (await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }));
    const ownsDb = !opts.db;
    if (dbHandle.dataDirTightenedFrom !== null)
      app.log.warn(
        { dataDir: config.dataDir, mode: octal(dbHandle.dataDirTightenedFrom) },
        'DATA_DIR was open to other accounts; it is private (0700) now',
      );
    dbHandle.onConnectionLost = (err) =>
      app.log.warn(
        { error: loggableDbError(err), event: 'db.connection_lost' },
        'A PostgreSQL connection ended (dropped, or given up on); a new one is opened when needed',
      );
    if (dbHandle.checkpointer) {
      dbHandle.checkpointer.onError = (err) =>
        app.log.error(
          { err },
          'the WAL checkpointer failed; SQLite checkpoints inline from now on',
        );
    }
    if (dbHandle.reader) {
      dbHandle.reader.onError = (err) =>
        app.log.error(
          { err },
          'the chart reads’ reading thread failed; they run on the server’s connection from now on',
        );
    }
    try {
      await migrateToLatest(dbHandle.migrationDb ?? dbHandle.db, dbHandle.schema);
    } catch (err) {
      if (ownsDb) await dbHandle.close();
      throw err;
    }
    const container = createContainer({
      config,
      dbHandle,
      jwtSecret: resolveJwtSecret(config),
      vapidKeys: await resolveVapidKeys(config, dbHandle.db, dbHandle.dialect),
      clock,
      log: app.log,
      ...(opts.mailTransport ? { mailTransport: opts.mailTransport } : {}),
      ...(opts.busStartTimeoutMs ? { busStartTimeoutMs: opts.busStartTimeoutMs } : {}),
      ...(opts.refusalDelay ? { refusalDelay: opts.refusalDelay } : {}),
    });
    await ensureFirstAdmin(config, container.repos.users, app.log);

    app.decorate('config', config);
    app.decorate('dbHandle', dbHandle);
    app.decorate('container', container);
    // Set here, on the root instance: a route plugin's assignment would stay in its own context.
    app.decorate('deviceAuthenticator', deviceKeyAuthenticator(container.keys));
    app.decorate(
      'metricsListener',
      config.metricsPort === undefined
        ? null
        : new MetricsListener(container.metrics, config.metricsToken),
    );
    try {
      await container.bus.start?.();
    } catch (err) {
      // Nothing else has started yet: what is open is closed, so the process can exit.
      await container.bus.close();
      container.mailTransport.close();
      if (ownsDb) await dbHandle.close();
      throw err;
    }
  },
  { name: 'pawguard-services', fastify: '5.x' },
);
