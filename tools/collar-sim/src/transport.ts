// How a virtual collar delivers a reading: an HTTP POST with its device key, or a QoS 1
// MQTT publish on its own topic (the PUBACK comes after the server's durable commit).
import mqtt, { type MqttClient } from 'mqtt';
import {
  isVitalsStatus,
  readingUploadResponseSchema,
  type ReadingInput,
  type VitalsStatus,
} from '@pawguard/shared';
import type { SimCollar } from './provision.js';

export type SendResult = { ok: true; status: VitalsStatus } | { ok: false; error: string };

export interface Transport {
  /** Opens what the collars need (MQTT connections); resolves when they are ready. */
  open(collars: SimCollar[]): Promise<void>;
  /** One reading, or a backlog of up to READINGS_BATCH_MAX (the status is of the last). */
  send(collar: SimCollar, reading: ReadingInput | ReadingInput[]): Promise<SendResult>;
  close(): Promise<void>;
}

const networkError = (err: unknown) => {
  const e = err as { cause?: { code?: string }; code?: string; message?: string };
  return `network: ${e.cause?.code ?? e.code ?? e.message ?? String(err)}`;
};

export function httpTransport(base: string): Transport {
  return {
    async open() {},
    async send(collar, reading) {
      try {
        const res = await fetch(`${base}/api/devices/${collar.device_id}/vitals`, {
          method: 'POST',
          headers: {
            authorization: `Device ${collar.device_key}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(reading),
        });
        const text = await res.text();
        if (res.status !== 201) {
          let message = '';
          try {
            message = (JSON.parse(text) as { error?: string }).error ?? '';
          } catch {
            // not JSON
          }
          // One kind per answer, whichever collar got it.
          const kind = `${res.status} ${message.replace(/PET-[A-Z0-9]{4}/g, 'PET-…')}`;
          return { ok: false, error: kind.trim() };
        }
        const { vitals } = readingUploadResponseSchema.parse(JSON.parse(text));
        return { ok: true, status: (Array.isArray(vitals) ? vitals.at(-1)! : vitals).status };
      } catch (err) {
        return { ok: false, error: networkError(err) };
      }
    },
    async close() {},
  };
}

/** The topic a collar publishes its readings to. */
export const vitalsTopic = (deviceId: string) => `pawguard/devices/${deviceId}/vitals`;

export function mqttTransport(url: string): Transport {
  const clients = new Map<string, MqttClient>();
  return {
    async open(collars) {
      // A few at a time, as a fleet coming online would; a refused key fails here.
      for (let i = 0; i < collars.length; i += 50) {
        await Promise.all(
          collars.slice(i, i + 50).map(async (c) => {
            const client = await mqtt.connectAsync(url, {
              username: c.device_id,
              password: c.device_key,
              clientId: `${c.device_id}-sim`,
              reconnectPeriod: 2000,
              connectTimeout: 10_000,
            });
            client.on('error', () => {
              // Reported by the publish that fails; mqtt.js reconnects on its own.
            });
            clients.set(c.device_id, client);
          }),
        );
      }
    },
    async send(collar, reading) {
      const client = clients.get(collar.device_id);
      if (!client) return { ok: false, error: 'not connected' };
      if (!client.connected) return { ok: false, error: 'mqtt: disconnected' };
      try {
        await client.publishAsync(vitalsTopic(collar.device_id), JSON.stringify(reading), {
          qos: 1,
        });
        // No answer body over MQTT: count the collar's own status.
        const { status } = Array.isArray(reading) ? reading.at(-1)! : reading;
        return { ok: true, status: isVitalsStatus(status) ? status : 'SAFE' };
      } catch (err) {
        return { ok: false, error: `mqtt: ${(err as Error).message}` };
      }
    },
    async close() {
      await Promise.all([...clients.values()].map((c) => c.endAsync()));
      clients.clear();
    },
  };
}
