import fs from 'node:fs';
import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { ParsedReading } from '@pawguard/shared';
import type { DeviceKeyCache, DevicePrincipal } from './device-key-cache.js';
import type { IngestService } from '../ingest/ingest-service.js';
import type { Clock } from './clock.js';
import { parseReadingUpload, READINGS_BODY_LIMIT } from './reading-upload.js';
import { HttpError } from './errors.js';
import { isDatabaseUnavailable, isTransactionConflict, loggableDbError } from '../db/index.js';
import type { FixedWindowLimit } from './fixed-window-limit.js';
import { LogSampler } from './log-sampler.js';
import { limitMqttPackets } from './mqtt-packet-limit.js';
import { refusalFor, type Metrics } from './metrics.js';
import { boundPort, listenOn } from './listening.js';

/** The one topic a collar may publish to: its readings, the same payload as over HTTP. */
const TOPIC_START = 'pawguard/devices/';
const TOPIC_END = '/vitals';
export const vitalsTopic = (deviceId: string) => `${TOPIC_START}${deviceId}${TOPIC_END}`;

/**
 * Whether `topic` is this collar's vitals topic, byte for byte: its Device ID as stored and
 * printed on the collar (upper case), nothing trimmed, no case folded. MQTT topics are
 * case-sensitive, and a topic that several spellings reach would be several topics to a broker.
 */
export function isVitalsTopicOf(topic: string, deviceId: string): boolean {
  return topic === vitalsTopic(deviceId);
}

/** Open connections one collar key may have; another one closes the oldest (the newest wins). */
export const CONNECTIONS_PER_KEY = 2;

/**
 * Inbound QoS 2 messages a connection may leave waiting for their PUBREL. Collars publish with
 * QoS 1; each waiting message is held in memory (up to a whole upload), so few are allowed.
 */
const MAX_INFLIGHT_QOS2 = 8;

/**
 * The largest packet a collar may send: a reading upload as large as HTTP accepts (a backlog
 * of 1,000 readings), its topic and MQTT's own fields. A larger one closes the connection.
 */
export const MAX_MQTT_PACKET = READINGS_BODY_LIMIT + 1024;

/** At most this many log lines a minute of each kind (malformed, outage), however many arrive. */
const BAD_MESSAGE_LOGS_PER_MINUTE = 20;

type CollarClient = Client & { collar?: DevicePrincipal };

/**
 * Open files kept for everything but collars (HTTP clients and live streams, the database,
 * logs): the MQTT cap never takes them, so a flood of collars cannot stop sign-in or health.
 */
const FILES_FOR_THE_REST = 256;

/** The process's limit on open files (`ulimit -n`; Linux), or undefined where unknown. */
export function openFileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The total cap the endpoint can keep: MQTT_MAX_CONNECTIONS, within the open-file limit. */
export function connectionCap(configured: number, openFiles: number | undefined): number {
  if (openFiles === undefined) return configured;
  return Math.max(1, Math.min(configured, openFiles - FILES_FOR_THE_REST));
}

/**
 * How many connections the endpoint holds at most: overall, from one address (an IPv6 /64;
 * 0: no cap), and not yet past CONNECT.
 */
export interface MqttConnectionCaps {
  total: number;
  perAddress: number;
  pending: number;
}

/**
 * How long a new connection has to send its CONNECT; then it is closed. A collar sends it at
 * once: the time only lets a slow link through, and bounds how long an idle socket holds a slot.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The address a connection counts against for the per-address cap: an IPv4 address (also one
 * mapped into IPv6) as is, an IPv6 address by its /64, since one host or site is given a whole
 * /64 and may connect from any address in it.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(address.split('%')[0]!)) return address;
  const bare = address.split('%')[0]!.toLowerCase();
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const gap = bare.indexOf('::');
  const full =
    gap === -1
      ? groups(bare)
      : (() => {
          const head = groups(bare.slice(0, gap));
          const tail = groups(bare.slice(gap + 2));
          return [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
        })();
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const refusal = (message: string, returnCode: 2 | 3 | 4 | 5): AuthenticateError =>
  Object.assign(new Error(message), { returnCode });

/**
 * The collars' MQTT endpoint inside the server (aedes on MQTT_PORT). A collar connects with
 * username = its Device ID and password = its key, and is refused at CONNECT otherwise. It may
 * publish only to its own topic and subscribe to nothing. A QoS 1 reading is stored by the
 * same durable group commit as HTTP, and its PUBACK is sent only after that commit. A
 * malformed message is dropped with a log line and acknowledged, so it is not sent again and
 * never holds up the readings behind it.
 *
 * Bounded whoever connects: at most `caps.total` connections and `caps.perAddress` from one
 * address or IPv6 /64 (more are closed as they arrive), `caps.pending` not yet past CONNECT (the
 * oldest closes; each has CONNECT_TIMEOUT_MS to send it), CONNECTIONS_PER_KEY per collar key (a new one
 * closes the oldest), every packet a collar sends (CONNECT, PUBLISH, SUBSCRIBE, PINGREQ)
 * counted against its per-minute limit, and no retained message kept: a retained publish is
 * refused and the broker's retained store keeps nothing.
 */
export class MqttEndpoint {
  private broker: Aedes | null = null;
  private server: net.Server | null = null;
  private readonly byDevice = new Map<string, Set<CollarClient>>();
  private readonly malformedLog = new LogSampler(BAD_MESSAGE_LOGS_PER_MINUTE);
  private readonly outageLogs = new LogSampler(BAD_MESSAGE_LOGS_PER_MINUTE);
  private readonly refusalLogs = new LogSampler(BAD_MESSAGE_LOGS_PER_MINUTE);
  private readonly capLogs = new LogSampler(BAD_MESSAGE_LOGS_PER_MINUTE);
  /** Open sockets by remote address, an IPv6 one by its /64 (authenticated or not). */
  private readonly byAddress = new Map<string, number>();
  /** Open sockets not yet authenticated, oldest first. */
  private readonly pending = new Set<net.Socket>();
  /** Messages dropped as malformed since start. */
  dropped = 0;
  /** Connections closed for a packet over MAX_MQTT_PACKET since start. */
  oversized = 0;
  /** Connections closed since start because a cap was reached (total, per address, per key). */
  capped = 0;

  constructor(
    private readonly d: {
      keys: DeviceKeyCache;
      ingest: IngestService;
      clock: Clock;
      log: FastifyBaseLogger;
      limit: FixedWindowLimit;
      caps: MqttConnectionCaps;
      /** Days back a reading's timestamp may be (READINGS_MAX_AGE_DAYS). */
      readingsMaxAgeDays: number;
      metrics?: Metrics;
      /** Told of a reading not stored because the database's storage failed (health). */
      writeFailures?: { note(err: unknown): void };
    },
  ) {}

  async listen(port: number, host: string): Promise<number> {
    const broker = await Aedes.createBroker({
      maxInflightInbound: MAX_INFLIGHT_QOS2,
      connectTimeout: CONNECT_TIMEOUT_MS,
      authenticate: (client, username, password, done) => {
        const deviceId = (username ?? '').trim().toUpperCase();
        const key = password?.toString('utf8') ?? '';
        this.d.keys.authenticate(key).then(
          (principal) => {
            if (!principal || principal.deviceId !== deviceId) {
              this.d.log.info(
                { event: 'mqtt.auth', outcome: 'failure' },
                'collar refused at CONNECT',
              );
              this.d.metrics?.ingestRefused('mqtt', 'unauthenticated');
              return done(refusal('Bad Device ID or key', 4), false);
            }
            // A session is known by its client id, and a new CONNECT with a taken id ends the
            // old session: a collar's client id must be its own Device ID (or start with it),
            // so no collar can push another off.
            if (!client.id.toUpperCase().startsWith(principal.deviceId)) {
              this.d.log.info(
                { event: 'mqtt.auth', outcome: 'failure', device: principal.deviceId },
                'collar refused at CONNECT: client id is not its Device ID',
              );
              this.d.metrics?.ingestRefused('mqtt', 'unauthenticated');
              return done(refusal('Client id must start with the Device ID', 2), false);
            }
            if (this.overLimit(principal, 'CONNECT')) {
              this.d.metrics?.ingestRefused('mqtt', 'rate_limited');
              return done(refusal('Server unavailable', 3), false);
            }
            (client as CollarClient).collar = principal;
            // Past CONNECT: no longer counted against the cap on pending connections.
            this.pending.delete(client.conn as net.Socket);
            // Known from now on, before CONNACK: a release in the next instant still finds it.
            this.track(client as CollarClient);
            const source = (client.conn as { remoteAddress?: string }).remoteAddress ?? 'mqtt';
            if (this.d.keys.sharedFrom(principal.id, source)) {
              this.d.log.warn(
                { event: 'device.credential_shared', device: principal.deviceId },
                'one device key used from several addresses within a minute',
              );
            }
            return done(null, true);
          },
          // MQTT's own "server unavailable": a collar tries again, as it would not after 4 or 5.
          () => {
            this.d.metrics?.ingestRefused('mqtt', 'unavailable');
            done(refusal('Server unavailable', 3), false);
          },
        );
      },
      // Refused in the SUBACK (0x80), the connection kept; counted, so a flood of them ends it.
      authorizeSubscribe: (client, _sub, done) => {
        const collar = (client as CollarClient).collar;
        if (collar && this.overLimit(collar, 'SUBSCRIBE'))
          return done(new Error('Too many packets from this collar'), null);
        done(null, null);
      },
      authorizePublish: (client, packet, done) => {
        const collar = (client as CollarClient | null)?.collar;
        // Refused, so never stored: a retained message would be kept by the broker for the
        // life of the process, one per topic, whatever became of the reading in it.
        const refused = !collar
          ? 'not a collar'
          : packet.retain
            ? 'retained'
            : !isVitalsTopicOf(packet.topic, collar.deviceId)
              ? 'topic'
              : null;
        if (!collar || refused) {
          this.d.metrics?.ingestRefused('mqtt', 'forbidden');
          if (this.refusalLogs.take())
            this.d.log.warn(
              {
                event: 'mqtt.publish_refused',
                device: collar?.deviceId,
                reason: refused,
                suppressed: this.refusalLogs.skipped,
              },
              refused === 'retained'
                ? 'retained publish refused (the server keeps no retained messages); collar disconnected'
                : 'publish to another topic refused; collar disconnected',
            );
          return done(
            new Error(
              refused === 'retained'
                ? 'Retained messages are not accepted'
                : 'Collars publish only to their own vitals topic',
            ),
          );
        }
        if (this.overLimit(collar, 'PUBLISH')) {
          this.d.metrics?.ingestRefused('mqtt', 'rate_limited');
          return done(new Error('Too many readings from this collar'));
        }
        let body: unknown;
        try {
          body = JSON.parse(packet.payload.toString('utf8'));
        } catch (err) {
          this.dropMalformed(collar.deviceId, err);
          return done(null);
        }
        parseReadingUpload(
          body,
          this.d.clock.now().getTime(),
          collar.deviceId,
          this.d.readingsMaxAgeDays,
        ).then(
          (readings) => this.store(collar, readings, packet.payload.length, done),
          (err: unknown) => {
            this.dropMalformed(collar.deviceId, err);
            done(null);
          },
        );
      },
      // Nothing is forwarded: collars subscribe to nothing, and readings reach browsers through
      // the live stream.
      authorizeForward: () => null,
    });
    broker.on('clientDisconnect', (client) => this.forget(client as CollarClient));
    broker.on('clientError', (client) => this.forget(client as CollarClient));
    broker.on('connectionError', (client) => this.forget(client as CollarClient));
    broker.on('ping', (_packet, client) => {
      const collar = (client as CollarClient).collar;
      if (collar && this.overLimit(collar, 'PINGREQ')) client.close();
    });
    keepNoRetainedMessages(broker);
    this.broker = broker;
    const server = net.createServer((socket) => {
      if (!this.admit(socket)) return;
      limitMqttPackets(socket, MAX_MQTT_PACKET, () => {
        this.oversized++;
        this.d.metrics?.ingestRefused('mqtt', 'too_large');
        this.d.log.warn(
          { event: 'mqtt.packet_too_large', limit: MAX_MQTT_PACKET },
          'MQTT packet over the size limit; connection closed',
        );
      });
      broker.handle(socket);
    });
    // Past the total, the system's own accept closes each new socket at once ('drop').
    const files = openFileLimit();
    const total = connectionCap(this.d.caps.total, files);
    if (total < this.d.caps.total)
      this.d.log.warn(
        { configured: this.d.caps.total, cap: total, openFiles: files },
        'MQTT_MAX_CONNECTIONS lowered to fit the open-file limit (ulimit -n); raise that limit to allow more',
      );
    server.maxConnections = total;
    server.on('drop', () => this.refuseConnection('total', total));
    this.server = server;
    return listenOn(server, port, host);
  }

  /**
   * Counts a socket against its address's cap, closing it instead when the cap is reached,
   * and among the pending ones (not yet past CONNECT): past their cap, the oldest pending one
   * closes. A collar sends its CONNECT at once, so a slot there is held for milliseconds; idle
   * sockets from anywhere can hold no more than that cap, and never the room of the collars
   * connected.
   */
  private admit(socket: net.Socket): boolean {
    if (!this.admitFromAddress(socket)) return false;
    const pendingCap = Math.min(this.d.caps.pending, this.d.caps.total);
    for (const oldest of this.pending) {
      if (this.pending.size < pendingCap) break;
      this.pending.delete(oldest);
      oldest.destroy();
      this.refuseConnection('pending', pendingCap);
    }
    this.pending.add(socket);
    socket.once('close', () => this.pending.delete(socket));
    return true;
  }

  private admitFromAddress(socket: net.Socket): boolean {
    const cap = this.d.caps.perAddress;
    if (cap === 0 || socket.remoteAddress === undefined) return true;
    const address = addressKey(socket.remoteAddress);
    const open = this.byAddress.get(address) ?? 0;
    if (open >= cap) {
      socket.destroy();
      this.refuseConnection('address', cap);
      return false;
    }
    this.byAddress.set(address, open + 1);
    socket.once('close', () => {
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    });
    return true;
  }

  private refuseConnection(
    cap: 'total' | 'address' | 'pending' | 'key',
    limit: number,
    device?: string,
  ) {
    this.capped++;
    if (!this.capLogs.take()) return;
    this.d.log.warn(
      { event: 'mqtt.connection_capped', cap, limit, device, suppressed: this.capLogs.skipped },
      cap === 'key'
        ? 'another connection with this collar key: its oldest connection closed'
        : cap === 'pending'
          ? 'too many MQTT connections waiting for their CONNECT: the oldest closed'
          : 'MQTT connection closed: too many connections',
    );
  }

  /**
   * Counts one packet of this collar against its per-minute packet limit (at the rate of its
   * HTTP requests); answers whether it is over, logging that a few times a minute.
   */
  private overLimit(collar: DevicePrincipal, packet: string): boolean {
    if (this.d.limit.tryTake(collar.id, Date.now()) === 0) return false;
    if (this.refusalLogs.take())
      this.d.log.warn(
        {
          event: 'mqtt.rate_limited',
          device: collar.deviceId,
          packet,
          suppressed: this.refusalLogs.skipped,
        },
        'collar over its packet limit; disconnected',
      );
    return true;
  }

  /** The port it listens on (null when not listening). */
  get port(): number | null {
    return boundPort(this.server);
  }

  /** Open collar connections. */
  get connections(): number {
    return this.broker?.connectedClients ?? 0;
  }

  /** A released, removed or re-keyed collar's sessions end at once. */
  disconnectDevice(deviceUuid: string): void {
    for (const client of this.byDevice.get(deviceUuid) ?? []) client.close();
    this.byDevice.delete(deviceUuid);
  }

  /** Adds a collar's connection; past CONNECTIONS_PER_KEY its oldest ones close. */
  private track(client: CollarClient): void {
    const id = client.collar!.id;
    let set = this.byDevice.get(id);
    if (!set) this.byDevice.set(id, (set = new Set()));
    set.add(client);
    client.conn.once('close', () => this.forget(client));
    // A Set keeps insertion order: the first is the oldest.
    for (const old of set) {
      if (set.size <= CONNECTIONS_PER_KEY) break;
      set.delete(old);
      old.close();
      this.refuseConnection('key', CONNECTIONS_PER_KEY, client.collar!.deviceId);
    }
  }

  /** Stores a publish's readings: PUBACK (`done(null)`) once they are committed, else refused. */
  private store(
    collar: DevicePrincipal,
    readings: ParsedReading[],
    bytes: number,
    done: (err: Error | null) => void,
  ): void {
    // Charged to the collar's and its owner's ingest budgets as over HTTP: over them, the
    // message is refused and the connection closed (logged once a minute by the budget).
    this.d.ingest.submit(collar.id, readings, bytes).then(
      (stored) => {
        this.d.metrics?.readingsIngested('mqtt', stored.length);
        done(null);
      },
      (err: unknown) => {
        this.d.metrics?.ingestRefused(
          'mqtt',
          err instanceof HttpError
            ? refusalFor(err.statusCode)
            : isDatabaseUnavailable(err) || isTransactionConflict(err)
              ? 'unavailable'
              : 'error',
        );
        // Not acknowledged: the collar keeps the reading and sends it again. An outage fails
        // every collar's message: a few lines a minute say so. A transaction that met another
        // writer (a deadlock) is logged apart, as over HTTP: it is ours to mend.
        if (isTransactionConflict(err))
          this.d.log.warn(
            { error: loggableDbError(err), event: 'db.conflict', transport: 'mqtt' },
            'MQTT reading not stored: its transaction met another writer; the collar sends it again',
          );
        else if (isDatabaseUnavailable(err)) {
          this.d.writeFailures?.note(err);
          if (this.outageLogs.take())
            this.d.log.error(
              {
                error: loggableDbError(err),
                event: 'db.unavailable',
                suppressed: this.outageLogs.skipped,
              },
              'MQTT reading not stored: the database is unavailable',
            );
        } else if (!(err instanceof HttpError))
          this.d.log.error({ err }, 'MQTT reading not stored');
        done(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  private forget(client: CollarClient): void {
    const id = client.collar?.id;
    if (!id) return;
    const set = this.byDevice.get(id);
    set?.delete(client);
    if (set?.size === 0) this.byDevice.delete(id);
  }

  private dropMalformed(deviceId: string, err: unknown): void {
    this.dropped++;
    this.d.metrics?.ingestRefused('mqtt', 'invalid');
    if (!this.malformedLog.take()) return;
    this.d.log.warn(
      {
        event: 'mqtt.malformed',
        device: deviceId,
        reason: err instanceof Error ? err.message : String(err),
        suppressed: this.malformedLog.skipped,
      },
      'malformed MQTT reading dropped',
    );
  }

  /** Retained messages the broker holds (always none: see keepNoRetainedMessages). */
  async retainedCount(): Promise<number> {
    if (!this.broker) return 0;
    let n = 0;
    for await (const _ of retainedStore(this.broker).createRetainedStream('#')) n++;
    return n;
  }

  async close(): Promise<void> {
    const server = this.server;
    const broker = this.broker;
    this.server = null;
    this.broker = null;
    if (broker) await new Promise<void>((r) => broker.close(() => r()));
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}

interface RetainedStore {
  storeRetained(packet: unknown): Promise<void>;
  createRetainedStream(pattern: string): AsyncIterable<unknown>;
}
/** aedes's persistence (its in-memory default); its type is not exported. */
const retainedStore = (broker: Aedes) =>
  (broker as unknown as { persistence: RetainedStore }).persistence;

/**
 * Nothing may be kept as retained, even by a path that is not a collar's PUBLISH (a will): the
 * store keeps no retained message, so the memory a collar can make the broker hold ends with its
 * connection.
 */
function keepNoRetainedMessages(broker: Aedes): void {
  retainedStore(broker).storeRetained = () => Promise.resolve();
}
