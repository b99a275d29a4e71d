import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DevicesRepository } from '../../repositories/devices-repository.js';
import type { DogsRepository } from '../../repositories/dogs-repository.js';
import type { OutboxRepository } from '../../repositories/outbox-repository.js';
import type { UsersRepository } from '../../repositories/users-repository.js';
import type { ReadingsRepository } from '../../repositories/readings-repository.js';
import type { Clock } from '../clock.js';
import type { FixedWindowLimit } from '../fixed-window-limit.js';
import type { DeviceNews } from './device-news.js';
import { CustomerRegistration } from './customer-registration.js';
import { DeviceAccess } from './device-access.js';
import { DeviceCredentials } from './device-credentials.js';
import { DeviceLifecycleService } from './device-lifecycle.js';
import { DeviceQueries } from './device-queries.js';
import { FleetProvisioning } from './fleet-provisioning.js';
import type { MailKick } from '../commit-effects.js';
import type { PetAccess } from '../pet-access.js';

export { hashDeviceKey } from './device-credentials.js';
export type { RemoveOutcome } from './device-lifecycle.js';
export type { DevicePage } from './device-queries.js';
export type { CredentialsChange, CredentialsChangeReason, DeviceNews } from './device-news.js';

export interface DeviceServiceDeps {
  db: Kysely<Database>;
  devices: DevicesRepository;
  dogs: DogsRepository;
  users: UsersRepository;
  outbox: OutboxRepository;
  readings: ReadingsRepository;
  clock: Clock;
  /** by-device-id, assign and the fallback share one budget per user (each reveals an id exists). */
  lookupLimit: FixedWindowLimit;
  /** Auto-assign reservations per user (5 an hour by default): the fleet is shared. */
  autoAssignLimit: FixedWindowLimit;
  /** The outbox worker, woken after a mail is queued. */
  mailWorker: MailKick;
  /** Told after commit whenever a device's key changes, it may no longer post, or it changed. */
  news: DeviceNews;
  /** What a person is to a collar's pet: owner, pack member (docs/pack.md), or nothing. */
  pets: PetAccess;
}

/**
 * The devices feature as the routes call it. Each part lives in its own file here:
 * - device-queries:        reading devices (an owner's, the fleet, by id or MAC, QR codes)
 * - customer-registration: look-up, claim, the fallback, auto-assign
 * - fleet-provisioning:    pre-populate, admin register, generate-id
 * - device-credentials:    keys, the collar's self-register and key check, rotation
 * - device-lifecycle:      edits, release, removal, a deleted dog or account
 * - device-news:           what they tell once a change has committed (DeviceNews)
 */
export class DeviceService {
  readonly queries: DeviceQueries;
  readonly registration: CustomerRegistration;
  readonly fleet: FleetProvisioning;
  readonly credentials: DeviceCredentials;
  readonly changes: DeviceLifecycleService;

  constructor(d: DeviceServiceDeps) {
    const access = new DeviceAccess(d.devices, d.dogs, d.pets);
    this.queries = new DeviceQueries(d.devices, access, d.clock);
    this.registration = new CustomerRegistration({ ...d, access });
    this.fleet = new FleetProvisioning(d);
    this.credentials = new DeviceCredentials(d.devices, d.news, d.clock);
    this.changes = new DeviceLifecycleService(d.devices, access, d.news, d.clock, d.db, d.readings);
  }

  // The names the routes and the container use.
  readonly listMine: DeviceQueries['listMine'] = (...a) => this.queries.listMine(...a);
  readonly listAll: DeviceQueries['listAll'] = (...a) => this.queries.listAll(...a);
  readonly listUnassigned: DeviceQueries['listUnassigned'] = (...a) =>
    this.queries.listUnassigned(...a);
  readonly get: DeviceQueries['get'] = (...a) => this.queries.get(...a);
  readonly seen: DeviceQueries['seen'] = (...a) => this.queries.seen(...a);
  readonly withReadingsStored: DeviceQueries['withReadingsStored'] = (...a) =>
    this.queries.withReadingsStored(...a);
  readonly getByDeviceId: DeviceQueries['getByDeviceId'] = (...a) =>
    this.queries.getByDeviceId(...a);
  readonly byMac: DeviceQueries['byMac'] = (...a) => this.queries.byMac(...a);
  readonly qrCode: DeviceQueries['qrCode'] = (...a) => this.queries.qrCode(...a);

  readonly lookup: CustomerRegistration['lookup'] = (...a) => this.registration.lookup(...a);
  readonly assign: CustomerRegistration['assign'] = (...a) => this.registration.assign(...a);
  readonly createUnregistered: CustomerRegistration['createUnregistered'] = (...a) =>
    this.registration.createUnregistered(...a);
  readonly autoAssign: CustomerRegistration['autoAssign'] = (...a) =>
    this.registration.autoAssign(...a);

  readonly generateId: FleetProvisioning['generateId'] = (...a) => this.fleet.generateId(...a);
  readonly prePopulate: FleetProvisioning['prePopulate'] = (...a) => this.fleet.prePopulate(...a);
  readonly registerToUser: FleetProvisioning['registerToUser'] = (...a) =>
    this.fleet.registerToUser(...a);

  readonly selfRegister: DeviceCredentials['selfRegister'] = (...a) =>
    this.credentials.selfRegister(...a);
  readonly rotateKey: DeviceCredentials['rotateKey'] = (...a) => this.credentials.rotateKey(...a);

  readonly update: DeviceLifecycleService['update'] = (...a) => this.changes.update(...a);
  readonly remove: DeviceLifecycleService['remove'] = (...a) => this.changes.remove(...a);
  readonly onDogDeleted: DeviceLifecycleService['onDogDeleted'] = (...a) =>
    this.changes.onDogDeleted(...a);
  readonly onUserDeleted: DeviceLifecycleService['onUserDeleted'] = (...a) =>
    this.changes.onUserDeleted(...a);
}
