import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.js';
import type { DbHandle } from './db/index.js';
import { UsersRepository } from './repositories/users-repository.js';
import { SessionsRepository } from './repositories/sessions-repository.js';
import { EmailConfirmationsRepository } from './repositories/email-confirmations-repository.js';
import { DogsRepository } from './repositories/dogs-repository.js';
import { PreferencesRepository } from './repositories/preferences-repository.js';
import { OutboxRepository } from './repositories/outbox-repository.js';
import { DevicesRepository } from './repositories/devices-repository.js';
import { WaitlistRepository } from './repositories/waitlist-repository.js';
import { WaitlistService } from './services/waitlist-service.js';
import { AuthService } from './services/auth-service.js';
import { UserService } from './services/user-service.js';
import { DogService } from './services/dog-service.js';
import { PreferencesService } from './services/preferences-service.js';
import { TokenService } from './services/token-service.js';
import { createMailTransport, type MailTransport } from './services/mail-transport.js';
import { OutboxWorker } from './services/outbox-worker.js';
import { PushRepository } from './repositories/push-repository.js';
import { PushSender } from './services/push-sender.js';
import { PushWorker } from './services/push-worker.js';
import { AlertPush } from './services/alert-push.js';
import { PushService } from './services/push-service.js';
import { AckLinks } from './services/ack-links.js';
import { PackRepository } from './repositories/pack-repository.js';
import { PetAccess } from './services/pet-access.js';
import { PackService } from './services/pack-service.js';
import { UndeliveredMail } from './services/undelivered-mail.js';
import { Housekeeping } from './services/housekeeping.js';
import { HealthProbe, ReadinessProbe, WriteFailures } from './services/health-probe.js';
import { DeviceService } from './services/devices/index.js';
import { DeviceChangeEffects } from './services/device-change-effects.js';
import { FixedWindowLimit } from './services/fixed-window-limit.js';
import { INGEST_BUDGET, IngestBudget } from './services/ingest-budget.js';
import { RefusalDelay, type RefusalDelayOptions } from './services/refusal-delay.js';
import { ReadBudget } from './services/read-budget.js';
import { LoginThrottle } from './services/login-throttle.js';
import type { Clock } from './services/clock.js';
import { ReadingsRepository } from './repositories/readings-repository.js';
import { RollupsRepository } from './repositories/rollups-repository.js';
import { StreamTicketsRepository } from './repositories/stream-tickets-repository.js';
import { LocalEventBus, PgEventBus, type EventBus } from './services/event-bus.js';
import { RedisEventBus } from './services/redis-event-bus.js';
import { DeviceKeyCache } from './services/device-key-cache.js';
import { IngestService } from './ingest/ingest-service.js';
import { CommitEffects } from './services/commit-effects.js';
import { KeptChartAnswers, ReadingsService } from './services/readings-service.js';
import { RollupWriter } from './services/rollups.js';
import { StreamHub } from './services/stream-hub.js';
import { MqttEndpoint } from './services/mqtt-endpoint.js';
import { AlertsRepository } from './repositories/alerts-repository.js';
import { AlertMailRepository } from './repositories/alert-mail-repository.js';
import { OfflineSweepRepository } from './repositories/offline-sweep-repository.js';
import { NotificationsRepository } from './repositories/notifications-repository.js';
import { AlertService } from './services/alert-service.js';
import { AlertMail } from './services/alert-mail.js';
import { Metrics } from './services/metrics.js';
import { ActivityRepository } from './repositories/activity-repository.js';
import { ActivityJob } from './services/activity-job.js';
import { ActivityService } from './services/activity-service.js';
import { InsightsMail } from './services/insights-mail.js';
import path from 'node:path';
import { sql } from 'kysely';

/** Wires repositories and services once; routes receive what they need from here. */
export function createContainer(opts: {
  config: Config;
  dbHandle: DbHandle;
  jwtSecret: string;
  /** The VAPID key pair pushes are signed with (resolveVapidKeys). */
  vapidKeys: { publicKey: string; privateKey: string };
  clock: Clock;
  log: FastifyBaseLogger;
  mailTransport?: MailTransport;
  busStartTimeoutMs?: number;
  /** How repeated ingest refusals are held (tests pass a sleep they release by hand). */
  refusalDelay?: RefusalDelayOptions;
}) {
  const { config, dbHandle, clock } = opts;
  const { db } = dbHandle;
  // This app's own figures (GET /metrics), apart from any other app in the process. The
  // process's own (event-loop lag, memory) only when they are served: prom-client's event-loop
  // monitor, once started, runs for the life of the process.
  const metrics: Metrics = new Metrics({
    defaultMetrics: config.metricsToken !== undefined || config.metricsPort !== undefined,
    // Read at scrape time only: the stream hub and the MQTT endpoint are built below, and
    // report to these metrics.
    sources: {
      openStreams: (): number => streams.size,
      mqttConnections: (): number => mqtt.connections,
      outbox: () => repos.outbox.pendingSummary(),
      now: () => clock.now().getTime(),
    },
  });
  const outbox = new OutboxRepository(db);
  const repos = {
    users: new UsersRepository(db, dbHandle.dialect),
    sessions: new SessionsRepository(db),
    confirmations: new EmailConfirmationsRepository(db),
    dogs: new DogsRepository(db, dbHandle.dialect),
    preferences: new PreferencesRepository(db),
    outbox,
    devices: new DevicesRepository(db),
    waitlist: new WaitlistRepository(db),
    readings: new ReadingsRepository(db),
    rollups: new RollupsRepository(db, dbHandle.reader),
    streamTickets: new StreamTicketsRepository(db),
    alerts: new AlertsRepository(db),
    notifications: new NotificationsRepository(db),
    alertMail: new AlertMailRepository(db),
    offlineSweep: new OfflineSweepRepository(db),
    push: new PushRepository(db, outbox),
    pack: new PackRepository(db),
  };
  // What a person is to a pet and its collars: owner, pack member (docs/pack.md), or nothing.
  const pets = new PetAccess(repos.pack, clock);
  // Live events: in process, or shared by every instance through Redis when REDIS_URL is set
  // (whatever the database), else through the one PostgreSQL they use.
  const bus: EventBus & { start?: () => Promise<void> } = config.redisUrl
    ? new RedisEventBus(
        config.redisUrl,
        dbHandle.schema,
        opts.log,
        opts.busStartTimeoutMs ? { startTimeoutMs: opts.busStartTimeoutMs } : {},
      )
    : dbHandle.dialect === 'postgres' && dbHandle.url
      ? new PgEventBus(
          dbHandle.url,
          dbHandle.schema,
          async (channel, payload) => {
            await sql`select pg_notify(${channel}, ${payload})`.execute(db);
          },
          opts.log,
        )
      : new LocalEventBus();
  const mailTransport =
    opts.mailTransport ??
    createMailTransport({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
    });
  const mailDomain = new URL(config.publicUrl).hostname || 'pawguard.local';
  const outboxWorker = new OutboxWorker(
    repos.outbox,
    mailTransport,
    opts.log,
    mailDomain,
    1_000,
    () => clock.now(),
    metrics,
    dbHandle.instanceId,
  );
  // Pushes ride the outbox beside mail, with a worker of their own: a slow push service never
  // holds up mail, nor a mail server pushes (docs/push.md).
  const pushSender = new PushSender({
    vapid: opts.vapidKeys,
    subject: config.vapidSubject,
    allowPrivate: config.pushAllowPrivateEndpoints,
  });
  const pushWorker = new PushWorker(
    repos.outbox,
    repos.push,
    pushSender,
    opts.log,
    1_000,
    () => clock.now(),
    dbHandle.instanceId,
  );
  const m = config.rateLimitMultiplier;
  const auth = new AuthService({
    db,
    ...repos,
    tokens: new TokenService(opts.jwtSecret),
    throttle: new LoginThrottle(m),
    clock,
    publicUrl: config.publicUrl,
    mailWorker: outboxWorker,
  });
  const keys = new DeviceKeyCache(async (hash) => {
    const row = await repos.devices.findByKeyHash(hash);
    return row ? { id: row.id, deviceId: row.device_id } : null;
  });
  // What a committed transaction caused goes out in one place: its live events to the bus,
  // its mail to the outbox worker, the alerts it opened to the metrics.
  const effects = new CommitEffects({
    bus,
    mail: outboxWorker,
    push: pushWorker,
    log: opts.log,
    metrics,
  });
  // Acknowledge links in alert mail and pushes: signed with the server's secret.
  const ackLinks = new AckLinks(opts.jwtSecret, config.publicUrl);
  const alertMail = new AlertMail({
    db,
    ackLinks,
    mails: repos.alertMail,
    outbox: repos.outbox,
    preferences: repos.preferences,
    notifications: repos.notifications,
    users: repos.users,
    transport: mailTransport,
    links: { publicUrl: config.publicUrl },
    clock,
    log: opts.log,
    worker: outboxWorker,
  });
  const alertPush = new AlertPush({
    push: repos.push,
    sender: pushSender,
    ackLinks,
    log: opts.log,
  });
  // The alerts tell the alert mail and push of every opening and escalation, in the
  // transaction that records it.
  const alerts = new AlertService({
    db,
    alerts: repos.alerts,
    notifications: repos.notifications,
    devices: repos.devices,
    offlineSweep: repos.offlineSweep,
    users: repos.users,
    readings: repos.readings,
    ackLinks,
    pets,
    pack: repos.pack,
    mail: alertMail,
    push: alertPush,
    effects,
    clock,
    log: opts.log,
    lockRows: dbHandle.dialect === 'postgres',
  });
  // Per collar and per owner account, in requests, readings and bytes, on every path (HTTP by
  // key or token, MQTT), apart from any address's limits (DEV-7, RES-7); and the storage quota.
  // A refused collar's owner is told by the alert engine (at most once a day per collar).
  const budget = new IngestBudget({
    multiplier: m,
    quota: config.readingsQuotaPerAccount,
    log: opts.log,
    notices: alerts,
  });
  // The path of a reading (docs/architecture.md): the alerts join every ingest transaction;
  // their mail is queued in it and delivered after it.
  const ingest = new IngestService({
    db,
    devices: repos.devices,
    readings: repos.readings,
    rollups: new RollupWriter({ readings: repos.readings, rollups: repos.rollups }),
    alerts,
    effects,
    clock,
    lockRows: dbHandle.dialect === 'postgres',
    metrics,
    budget,
  });
  const preferences = new PreferencesService(repos.preferences, clock);
  const streams = new StreamHub({
    bus,
    tickets: repos.streamTickets,
    sessions: repos.sessions,
    sharedDevices: (users, now) => repos.pack.sharedDevicesOf(users, now),
    clock,
    log: opts.log,
  });
  // MQTT packets per collar (every packet counts, a malformed one too), at the rate of the
  // collar's HTTP requests; the readings' budgets, shared by every path, count what is stored.
  const mqttPackets = new FixedWindowLimit(
    Math.ceil(INGEST_BUDGET.collar.requestsPerMinute * m),
    60_000,
    'Too many readings from this collar. Send a backlog as one list instead.',
  );
  const writeFailures = new WriteFailures(clock);
  const mqtt = new MqttEndpoint({
    keys,
    writeFailures,
    ingest,
    clock,
    log: opts.log,
    limit: mqttPackets,
    caps: {
      total: config.mqttMaxConnections,
      perAddress: config.mqttMaxConnectionsPerAddress,
      pending: config.mqttMaxPendingConnections,
    },
    readingsMaxAgeDays: config.readingsMaxAgeDays,
    metrics,
  });
  // What a committed change to a device drops (its key look-up, its budget's account, its MQTT
  // sessions, its kept chart answers: here and, through the bus, on every instance), and the
  // owners' screens it refetches.
  const chartAnswers = new KeptChartAnswers();
  const deviceChanges = new DeviceChangeEffects({
    keys,
    budget,
    mqtt,
    answers: chartAnswers,
    bus,
    log: opts.log,
  });
  const devices = new DeviceService({
    pets,
    news: deviceChanges,
    db,
    devices: repos.devices,
    dogs: repos.dogs,
    users: repos.users,
    outbox: repos.outbox,
    readings: repos.readings,
    clock,
    lookupLimit: new FixedWindowLimit(
      Math.ceil(10 * m),
      60_000,
      'Too many Device ID look-ups. Please try again in a minute.',
    ),
    autoAssignLimit: new FixedWindowLimit(
      Math.ceil(5 * m),
      60 * 60 * 1000,
      'You have reserved several collars in the last hour. Please try again later.',
    ),
    mailWorker: outboxWorker,
  });
  // A deleted dog's collars stay with the owner; a deleted account's collars are released.
  const users = new UserService(db, repos.users, clock, devices);
  const dogs = new DogService(db, repos.dogs, clock, devices, pets);
  const readings = new ReadingsService({
    readings: repos.readings,
    rollups: repos.rollups,
    devices,
    preferences,
    answers: chartAnswers,
    clock,
  });
  const housekeeping = new Housekeeping({
    ...repos,
    readingsRetentionDays: config.readingsRetentionDays,
    lockRows: dbHandle.dialect === 'postgres',
    clock,
    log: opts.log,
  });
  // Activity, goals and insights (docs/activity.md): the job classes rollups, the mail is weekly.
  const activityRepo = new ActivityRepository(db);
  const activityJob = new ActivityJob({
    db,
    activity: activityRepo,
    clock,
    log: opts.log,
    readingsMaxAgeDays: config.readingsMaxAgeDays,
  });
  const pack = new PackService({
    db,
    pack: repos.pack,
    dogs: repos.dogs,
    outbox: repos.outbox,
    pets,
    clock,
    publicUrl: config.publicUrl,
    mailWorker: outboxWorker,
    closeStreams: (userId) => streams.closeUser(userId),
    inviteLimit: new FixedWindowLimit(
      Math.ceil(20 * m),
      60 * 60_000,
      'You have sent many invitations in the last hour. Please try again later.',
    ),
  });
  const activity = new ActivityService({ activity: activityRepo, job: activityJob, clock, pets });
  const insightsMail = new InsightsMail({
    db,
    activity: activityRepo,
    service: activity,
    outbox: repos.outbox,
    clock,
    log: opts.log,
    publicUrl: config.publicUrl,
    mailWorker: outboxWorker,
  });
  return {
    activity,
    activityJob,
    insightsMail,
    db,
    dialect: dbHandle.dialect,
    clock,
    bus,
    keys,
    ingest,
    alerts,
    alertMail,
    testEmailLimit: new FixedWindowLimit(
      Math.ceil(5 * m),
      10 * 60_000,
      'Too many test emails. Please try again in a few minutes.',
    ),
    mqtt,
    metrics,
    mqttPackets,
    budget,
    // Chart reads (history, back-test, activity, insights) per account a minute (decision 0046).
    readBudget: new ReadBudget({ multiplier: m, log: opts.log }),
    // A collar's or an account's repeated 429s over HTTP are answered a second later, on a
    // timer, so a flood's closed-loop clients cost the server a refusal a second each.
    refusals: new RefusalDelay(opts.refusalDelay),
    streams,
    readings,
    repos,
    mailTransport,
    outboxWorker,
    ackLinks,
    pushWorker,
    pushSender,
    alertPush,
    push: new PushService({
      push: repos.push,
      clock,
      publicKey: opts.vapidKeys.publicKey,
      allowPrivate: config.pushAllowPrivateEndpoints,
    }),
    testPushLimit: new FixedWindowLimit(
      Math.ceil(5 * m),
      10 * 60_000,
      'Too many test pushes. Please try again in a few minutes.',
    ),
    undeliveredMail: new UndeliveredMail(repos.outbox, clock, () => outboxWorker.kick()),
    housekeeping,
    writeFailures,
    health: new HealthProbe({
      db,
      dialect: dbHandle.dialect,
      dataDir: config.dataDir,
      clock,
      writeFailures,
    }),
    readiness: new ReadinessProbe({
      db,
      writeFailures,
      dialect: dbHandle.dialect,
      dataDir: config.dataDir,
      minFreeBytes: config.readyMinFreeMb * 1_048_576,
      clock,
      redis: bus instanceof RedisEventBus ? bus : undefined,
      mqtt: config.mqttPort === undefined ? undefined : mqtt,
    }),
    auth,
    users,
    dogs,
    devices,
    deviceChanges,
    preferences,
    pack,
    waitlist: new WaitlistService(repos.waitlist, clock),
  };
}

export type Container = ReturnType<typeof createContainer>;
