import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.js';

describe('configuration', () => {
  it('runs on defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      smtpUrl: undefined,
      adminEmail: 'admin@localhost',
      logLevel: 'info',
      rateLimitMultiplier: 1,
    });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('listens for MQTT only when MQTT_PORT names a port; empty means off', () => {
    expect(loadConfig({}).mqttPort).toBeUndefined();
    expect(loadConfig({ MQTT_PORT: '' }).mqttPort).toBeUndefined();
    expect(loadConfig({ MQTT_PORT: '  ' }).mqttPort).toBeUndefined();
    expect(loadConfig({ MQTT_PORT: '1884' }).mqttPort).toBe(1884);
    expect(() => loadConfig({ MQTT_PORT: 'mqtt' })).toThrow(/MQTT_PORT: must be a port number/);
    // Both on one port: refused at start, never a listener failing later with "in use".
    expect(() => loadConfig({ MQTT_PORT: '3000' })).toThrow(/MQTT_PORT: must differ from PORT/);
    expect(() => loadConfig({ PORT: '4000', MQTT_PORT: '4000' })).toThrow(/must differ from PORT/);
    expect(loadConfig({ PORT: '0', MQTT_PORT: '0' }).mqttPort).toBe(0);
    expect(loadConfig({}).readingsRetentionDays).toBe(30);
    expect(() => loadConfig({ READINGS_RETENTION_DAYS: '0' })).toThrow(/READINGS_RETENTION_DAYS/);
    expect(loadConfig({}).readingsMaxAgeDays).toBe(7);
    expect(
      loadConfig({ READINGS_MAX_AGE_DAYS: '35', READINGS_RETENTION_DAYS: '35' }).readingsMaxAgeDays,
    ).toBe(35);
    for (const bad of ['0', '36', '7.5', 'week'])
      expect(() => loadConfig({ READINGS_MAX_AGE_DAYS: bad })).toThrow(
        /READINGS_MAX_AGE_DAYS: must be a whole number of days from 1 to 35/,
      );
    expect(loadConfig({}).readingsQuotaPerAccount).toBe(6_000_000);
    // The documented case fits: two collars a second for the default retention, plus the hour
    // before retention's next hourly run.
    const { readingsQuotaPerAccount, readingsRetentionDays } = loadConfig({});
    expect(readingsQuotaPerAccount).toBeGreaterThan(2 * (readingsRetentionDays * 86_400 + 3_600));
    expect(loadConfig({ READINGS_QUOTA_PER_ACCOUNT: '20000000' }).readingsQuotaPerAccount).toBe(
      20_000_000,
    );
    expect(() => loadConfig({ READINGS_QUOTA_PER_ACCOUNT: '0' })).toThrow(
      /READINGS_QUOTA_PER_ACCOUNT: must be a whole number of readings/,
    );
  });

  it('caps MQTT connections overall and per address, 0 lifting the per-address cap', () => {
    expect(loadConfig({})).toMatchObject({
      mqttMaxConnections: 2000,
      mqttMaxConnectionsPerAddress: 50,
    });
    expect(
      loadConfig({ MQTT_MAX_CONNECTIONS: '10000', MQTT_MAX_CONNECTIONS_PER_ADDRESS: '0' }),
    ).toMatchObject({ mqttMaxConnections: 10000, mqttMaxConnectionsPerAddress: 0 });
    expect(() => loadConfig({ MQTT_MAX_CONNECTIONS: '0' })).toThrow(
      /MQTT_MAX_CONNECTIONS: must be a whole number of connections \(1 or more\)/,
    );
    expect(() => loadConfig({ MQTT_MAX_CONNECTIONS_PER_ADDRESS: '-1' })).toThrow(
      /MQTT_MAX_CONNECTIONS_PER_ADDRESS/,
    );
    expect(loadConfig({}).mqttMaxPendingConnections).toBe(100);
    expect(loadConfig({ MQTT_MAX_PENDING_CONNECTIONS: '20' }).mqttMaxPendingConnections).toBe(20);
    expect(() => loadConfig({ MQTT_MAX_PENDING_CONNECTIONS: '0' })).toThrow(
      /MQTT_MAX_PENDING_CONNECTIONS: must be a whole number of connections \(1 or more\)/,
    );
  });

  it('serves metrics only when METRICS_PORT or METRICS_TOKEN says how, and checks both', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: undefined, metricsToken: undefined });
    expect(loadConfig({ METRICS_PORT: '', METRICS_TOKEN: ' ' })).toMatchObject({
      metricsPort: undefined,
      metricsToken: undefined,
    });
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(loadConfig({}).metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost).toBe('0.0.0.0');
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_PORT: 'prom' })).toThrow(/METRICS_PORT: must be a port/);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(
      /METRICS_PORT: must differ from PORT and MQTT_PORT/,
    );
    expect(() => loadConfig({ MQTT_PORT: '1884', METRICS_PORT: '1884' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 16 printable characters/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(
      /METRICS_TOKEN/,
    );
  });

  it('reads READY_MIN_FREE_MB as whole megabytes, 100 unless set', () => {
    expect(loadConfig({}).readyMinFreeMb).toBe(100);
    expect(loadConfig({ READY_MIN_FREE_MB: '0' }).readyMinFreeMb).toBe(0);
    expect(() => loadConfig({ READY_MIN_FREE_MB: '-5' })).toThrow(/READY_MIN_FREE_MB/);
    expect(() => loadConfig({ READY_MIN_FREE_MB: '1.5' })).toThrow(/READY_MIN_FREE_MB/);
  });

  it('accepts the default admin address when it is set explicitly', () => {
    expect(loadConfig({ ADMIN_EMAIL: 'Admin@LocalHost' }).adminEmail).toBe('admin@localhost');
  });

  it('names every invalid variable in one message', () => {
    let message = '';
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        SMTP_URL: 'http://mail',
        RATE_LIMIT_MULTIPLIER: '-1',
      });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'SMTP_URL', 'RATE_LIMIT_MULTIPLIER']) {
      expect(message).toContain(`${name}:`);
    }
    expect(message).toContain('PORT: must be a port number (0-65535)');
  });

  it('reads TRUST_PROXY as a list of addresses or CIDR ranges, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/16 ,::1,fd00::/8' }).trustProxy,
    ).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8']);
    for (const bad of [
      'true',
      'proxy.example.com',
      '10.0.0.1/33',
      '10.0.0/8',
      '::1/129',
      '1.2.3.4/8/9',
    ])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /TRUST_PROXY: must be a comma-separated list of IP addresses or CIDR ranges/,
      );
  });

  it('requires JWT_SECRET with DATABASE_URL, so instances accept each other’s tokens', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/pawguard' })).toThrow(
      /JWT_SECRET: is required when DATABASE_URL is set/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db/pawguard', JWT_SECRET: 'x'.repeat(32) })
        .databaseUrl,
    ).toBe('postgres://db/pawguard');
  });

  it('treats blank variables as unset', () => {
    expect(loadConfig({ SMTP_URL: '  ', DATABASE_URL: '' })).toMatchObject({
      smtpUrl: undefined,
      databaseUrl: undefined,
    });
  });

  it("takes the Support page's e-mail and phone from SUPPORT_EMAIL and SUPPORT_PHONE, else the samples", () => {
    expect(loadConfig({})).toMatchObject({
      supportEmail: 'support@pawguard.example',
      supportPhone: '(800) 555-0142',
    });
    expect(loadConfig({ SUPPORT_EMAIL: ' ', SUPPORT_PHONE: '' })).toMatchObject({
      supportEmail: 'support@pawguard.example',
      supportPhone: '(800) 555-0142',
    });
    expect(
      loadConfig({ SUPPORT_EMAIL: 'help@example.org', SUPPORT_PHONE: '+44 20 7946 0000' }),
    ).toMatchObject({ supportEmail: 'help@example.org', supportPhone: '+44 20 7946 0000' });
  });

  it('refuses a support e-mail or phone that is not one', () => {
    expect(() => loadConfig({ SUPPORT_EMAIL: 'support', SUPPORT_PHONE: 'call us' })).toThrow(
      /SUPPORT_EMAIL: must be an e-mail address[\s\S]*SUPPORT_PHONE: must be a phone number/,
    );
    expect(() => loadConfig({ SUPPORT_PHONE: '12-34' })).toThrow(/SUPPORT_PHONE/);
  });
});
