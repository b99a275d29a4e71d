import type { FastifyBaseLogger } from 'fastify';
import type { DeviceKeyCache } from './device-key-cache.js';
import type { IngestBudget } from './ingest-budget.js';
import type { MqttEndpoint } from './mqtt-endpoint.js';
import type { KeptChartAnswers } from './readings-service.js';
import { isAccessMessage, type BusItem, type EventBus } from './event-bus.js';
import type { CredentialsChange, DeviceNews } from './devices/device-news.js';

/**
 * What a committed change to a device means for what this server keeps about it, and for the
 * owners' screens. The device services call it after their transaction commits:
 *
 * - Its key changed, or it may no longer post (`credentialsChanged`): its key is looked up
 *   afresh, the account its uploads were charged to is forgotten, its MQTT sessions end, and
 *   its owner's screens refetch it (`updated` for a new key, `removed` otherwise).
 * - It changed otherwise (`deviceUpdated`: claimed, assigned, edited): it may have changed
 *   hands, so its next upload learns its owner; its owners' screens refetch it.
 *
 * Every other instance hears of a credentials change through the bus (the message carries
 * `credentials`), and drops the same things, and the collar's kept chart answers; a `resync`
 * (events may have been missed) drops everything kept about every collar. Each step is on its
 * own: one that throws is logged and the others still run, and the request that made the
 * change is never affected.
 */
export class DeviceChangeEffects implements DeviceNews {
  constructor(
    private readonly d: {
      keys: DeviceKeyCache;
      budget: IngestBudget;
      mqtt: MqttEndpoint;
      answers: KeptChartAnswers;
      bus: EventBus;
      log: FastifyBaseLogger;
    },
  ) {
    d.bus.subscribe((m) => this.heard(m));
  }

  credentialsChanged(changes: CredentialsChange | CredentialsChange[]): void {
    for (const c of Array.isArray(changes) ? changes : [changes]) {
      this.forget(c.id);
      const change = c.reason === 'rotated' || c.reason === 'rekeyed' ? 'updated' : 'removed';
      this.step(() =>
        this.d.bus.publish([
          {
            audience: c.owner_id ? [c.owner_id] : [],
            event: { type: 'device', device: c.id, change },
            credentials: true,
          },
        ]),
      );
    }
  }

  deviceUpdated(id: string, ...owners: (string | null | undefined)[]): void {
    this.step(() => this.d.budget.forgetCollar(id));
    const audience = [...new Set(owners.filter((o): o is string => !!o))];
    this.step(() =>
      this.d.bus.publish([{ audience, event: { type: 'device', device: id, change: 'updated' } }]),
    );
  }

  /** A message on the bus, from this instance or another. */
  private heard(m: BusItem): void {
    if (isAccessMessage(m)) return;
    if (m.event.type === 'resync') {
      this.step(() => this.d.keys.clear());
      this.step(() => this.d.budget.forgetCollar());
      this.step(() => this.d.answers.forget());
    }
    if (m.event.type !== 'device' || !m.credentials) return;
    this.forget(m.event.device);
  }

  /**
   * What this instance keeps about a collar that may no longer post with what it had: dropped
   * at once where the change was made, and again when the bus brings the change back (a
   * second drop finds nothing).
   */
  private forget(id: string): void {
    this.step(() => this.d.keys.invalidate(id));
    this.step(() => this.d.budget.forgetCollar(id));
    this.step(() => this.d.answers.forget(id));
    this.step(() => this.d.mqtt.disconnectDevice(id));
  }

  private step(run: () => void): void {
    try {
      run();
    } catch (err) {
      this.d.log.error({ err }, 'dropping what was kept about a changed device failed');
    }
  }
}
