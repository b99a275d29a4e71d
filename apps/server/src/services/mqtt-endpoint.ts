import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import { normalizeDeviceId } from '@pawguard/shared';
import type { DevicePrincipal } from '../plugins/auth.js';
import type { DeviceKeyCache } from './device-key-cache.js';
import type { IngestService } from './ingest-service.js';
import type { Clock } from './clock.js';
import { parseReadingUpload, READINGS_BODY_LIMIT } from './reading-upload.js';
import { HttpError } from './errors.js';
import { isDatabaseUnavailable, loggableDbError } from '../db/index.js';
import type { FixedWindowLimit } from './fixed-window-limit.js';
import { LogSampler } from './log-sampler.js';
import { limitMqttPackets } from './mqtt-packet-limit.js';
import { refusalFor, type Metrics } from './metrics.js';
import { boundPort, listenOn } from './listening.js';

/** The one topic a collar may publish to: its readings, the same payload as over HTTP. */
const TOPIC_START = 'pawguard/devices/';
const TOPIC_END = '/vitals';
export const vitalsTopic = (deviceId: string) => `${TOPIC_START}${deviceId}${TOPIC_END}`;

/** Whether `topic` is this collar's vitals topic: its Device ID in any case, as HTTP takes it. */
export function isVitalsTopicOf(topic: string, deviceId: string): boolean {
  if (!topic.startsWith(TOPIC_START) || !topic.endsWith(TOPIC_END)) return false;
  return normalizeDeviceId(topic.slice(TOPIC_START.length, -TOPIC_END.length)) === deviceId;
}

/**
 * The largest packet a collar may send: a reading upload as large as HTTP accepts (a backlog
 * of 1,000 readings), its topic and MQTT's own fields. A larger one closes the connection.
 */
export const MAX_MQTT_PACKET = READINGS_BODY_LIMIT + 1024;

/** At most this many log lines a minute of each kind (malformed, outage), however many arrive. */
const BAD_MESSAGE_LOGS_PER_MINUTE = 20;

type CollarClient = Client & { collar?: DevicePrincipal };

const refusal = (message: string, returnCode: 2 | 3 | 4 | 5): AuthenticateError =>
  Object.assign(new Error(message), { returnCode });

/**
 * The collars' MQTT endpoint inside the server (aedes on MQTT_PORT). A collar connects with
 * username = its Device ID and password = its key, and is refused at CONNECT otherwise. It may
 * publish only to its own topic and subscribe to nothing. A QoS 1 reading is stored by the
 * same durable group commit as HTTP, and its PUBACK is sent only after that commit. A
 * malformed message is dropped with a log line and acknowledged, so it is not sent again and
 * never holds up the readings behind it.
 */
export class MqttEndpoint {
  private broker: Aedes | null = null;
  private server: net.Server | null = null;
  private readonly byDevice = new Map<string, Set<CollarClient>>();
  private readonly malformedLog = new LogSampler(BAD_MESSAGE_LOGS_PER_MINUTE);
  private readonly outageLogs = new LogSampler(BAD_MESSAGE_LOGS_PER_MINUTE);
  /** Messages dropped as malformed since start. */
  dropped = 0;
  /** Connections closed for a packet over MAX_MQTT_PACKET since start. */
  oversized = 0;

  constructor(
    private readonly d: {
      keys: DeviceKeyCache;
      ingest: IngestService;
      clock: Clock;
      log: FastifyBaseLogger;
      limit: FixedWindowLimit;
      metrics?: Metrics;
    },
  ) {}

  async listen(port: number, host: string): Promise<number> {
    const broker = await Aedes.createBroker({
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
            (client as CollarClient).collar = principal;
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
      // Refused in the SUBACK (0x80), the connection kept.
      authorizeSubscribe: (_client, _sub, done) => done(null, null),
      authorizePublish: (client, packet, done) => {
        const collar = (client as CollarClient | null)?.collar;
        if (!collar || !isVitalsTopicOf(packet.topic, collar.deviceId)) {
          this.d.log.warn(
            { event: 'mqtt.publish_refused', device: collar?.deviceId },
            'publish to another topic refused; collar disconnected',
          );
          this.d.metrics?.ingestRefused('mqtt', 'forbidden');
          return done(new Error('Collars publish only to their own vitals topic'));
        }
        if (this.d.limit.retryAfterSeconds(collar.id, Date.now()) > 0) {
          this.d.log.warn(
            { event: 'mqtt.rate_limited', device: collar.deviceId },
            'collar over its reading limit; disconnected',
          );
          this.d.metrics?.ingestRefused('mqtt', 'rate_limited');
          return done(new Error('Too many readings from this collar'));
        }
        this.d.limit.hit(collar.id, Date.now());
        let readings;
        try {
          const body: unknown = JSON.parse(packet.payload.toString('utf8'));
          readings = parseReadingUpload(body, this.d.clock.now().getTime(), collar.deviceId);
        } catch (err) {
          this.dropMalformed(collar.deviceId, err);
          return done(null);
        }
        // Charged to the collar's and its owner's ingest budgets as over HTTP: over them, the
        // message is refused and the connection closed (logged once a minute by the budget).
        this.d.ingest.submit(collar.id, readings, packet.payload.length).then(
          (stored) => {
            this.d.metrics?.readingsIngested('mqtt', stored.length);
            done(null);
          },
          (err: unknown) => {
            this.d.metrics?.ingestRefused(
              'mqtt',
              err instanceof HttpError
                ? refusalFor(err.statusCode)
                : isDatabaseUnavailable(err)
                  ? 'unavailable'
                  : 'error',
            );
            // Not acknowledged: the collar keeps the reading and sends it again. An outage fails
            // every collar's message: a few lines a minute say so.
            if (isDatabaseUnavailable(err)) {
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
      },
      // Nothing is forwarded: collars subscribe to nothing, and readings reach browsers through
      // the live stream.
      authorizeForward: () => null,
    });
    broker.on('clientDisconnect', (client) => this.forget(client as CollarClient));
    broker.on('clientError', (client) => this.forget(client as CollarClient));
    broker.on('connectionError', (client) => this.forget(client as CollarClient));
    this.broker = broker;
    const server = net.createServer((socket) => {
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
    this.server = server;
    return listenOn(server, port, host);
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

  private track(client: CollarClient): void {
    const id = client.collar!.id;
    let set = this.byDevice.get(id);
    if (!set) this.byDevice.set(id, (set = new Set()));
    set.add(client);
    client.conn.once('close', () => this.forget(client));
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

  async close(): Promise<void> {
    const server = this.server;
    const broker = this.broker;
    this.server = null;
    this.broker = null;
    if (broker) await new Promise<void>((r) => broker.close(() => r()));
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}
