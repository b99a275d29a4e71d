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
import { PetService } from './services/pet-service.js';
import { PreferencesService } from './services/preferences-service.js';
import { TokenService } from './services/token-service.js';
import { createMailTransport, type MailTransport } from './services/mail-transport.js';
import { OutboxWorker } from './services/outbox-worker.js';
import { Housekeeping } from './services/housekeeping.js';
import { HealthProbe } from './services/health-probe.js';
import { DeviceLifecycle, DeviceService } from './services/devices/index.js';
import { FixedWindowLimit } from './services/fixed-window-limit.js';
import { LoginThrottle } from './services/login-throttle.js';
import type { Clock } from './services/clock.js';
import path from 'node:path';

/** Wires repositories and services once; routes receive what they need from here. */
export function createContainer(opts: {
  config: Config;
  dbHandle: DbHandle;
  jwtSecret: string;
  clock: Clock;
  log: FastifyBaseLogger;
  mailTransport?: MailTransport;
}) {
  const { config, dbHandle, clock } = opts;
  const { db } = dbHandle;
  const repos = {
    users: new UsersRepository(db, dbHandle.dialect),
    sessions: new SessionsRepository(db),
    confirmations: new EmailConfirmationsRepository(db),
    dogs: new DogsRepository(db, dbHandle.dialect),
    preferences: new PreferencesRepository(db),
    outbox: new OutboxRepository(db),
    devices: new DevicesRepository(db),
    waitlist: new WaitlistRepository(db),
  };
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
  );
  const m = config.rateLimitMultiplier;
  const auth = new AuthService({
    db,
    ...repos,
    tokens: new TokenService(opts.jwtSecret),
    throttle: new LoginThrottle(m),
    clock,
    publicUrl: config.publicUrl,
    onMailQueued: () => outboxWorker.kick(),
  });
  const users = new UserService(db, repos.users, clock);
  const pets = new PetService(db, repos.dogs, clock);
  const deviceLifecycle = new DeviceLifecycle((err) =>
    opts.log.error({ err }, 'a device credentials listener failed'),
  );
  const devices = new DeviceService({
    lifecycle: deviceLifecycle,
    db,
    devices: repos.devices,
    dogs: repos.dogs,
    users: repos.users,
    outbox: repos.outbox,
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
    onMailQueued: () => outboxWorker.kick(),
  });
  // A deleted pet's collars stay with the owner; a deleted account's collars are released.
  pets.onBeforeDelete((petId, _owner, trx) => devices.onPetDeleted(petId, trx));
  users.onBeforeDelete((userId, trx) => devices.onUserDeleted(userId, trx));
  const housekeeping = new Housekeeping({ ...repos, clock, log: opts.log });
  return {
    db,
    dialect: dbHandle.dialect,
    repos,
    mailTransport,
    outboxWorker,
    housekeeping,
    health: new HealthProbe(db, clock),
    auth,
    users,
    pets,
    devices,
    deviceLifecycle,
    preferences: new PreferencesService(repos.preferences, clock),
    waitlist: new WaitlistService(repos.waitlist, clock),
  };
}

export type Container = ReturnType<typeof createContainer>;
