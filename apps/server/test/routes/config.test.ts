import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { SUPPORT_EMAIL: 'help@example.org', SUPPORT_PHONE: '+44 20 7946 0000' },
  });
});
afterAll(() => t.close());

describe('GET /api/config', () => {
  it('answers the support contacts from the settings, without a token, never cached', async () => {
    const res = await t.app.inject({ url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      support_email: 'help@example.org',
      support_phone: '+44 20 7946 0000',
      support_phone_tel: '+442079460000',
      // MQTT is off unless MQTT_PORT is set.
      mqtt_port: null,
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the port collars reach over MQTT when it is on', async () => {
    const withMqtt = await createTestApp({ env: { MQTT_PORT: '0' } });
    try {
      const port = withMqtt.app.container.mqtt.port;
      expect(port).toBeGreaterThan(0);
      expect((await withMqtt.app.inject({ url: '/api/config' })).json().mqtt_port).toBe(port);
    } finally {
      await withMqtt.close();
    }
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(doc.paths['/api/config']).toBeDefined();
  });
});
