import { describe, expect, it } from 'vitest';
import { parseDuration, parseOptions, UsageError, USAGE, type SimOptions } from './options.js';
import { SCENARIO_NAMES } from './scenarios.js';

const parse = (argv: string[], env: Record<string, string> = {}) =>
  parseOptions(argv, env, '/srv/pawguard') as SimOptions;

describe('the simulator command line', () => {
  it('reads durations in ms, s, m and h, a bare number as seconds', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('10')).toBe(10_000);
    expect(() => parseDuration('soon')).toThrow(UsageError);
  });

  it('defaults to 10 collars every 5 s over HTTP to localhost:3000, state under ./data', () => {
    const o = parse([]);
    expect(o).toMatchObject({
      devices: 10,
      intervalMs: 5000,
      url: 'http://localhost:3000',
      mqttUrl: null,
      heatwave: false,
      ownerEmail: 'demo@pawguard.local',
      statePath: '/srv/pawguard/data/collar-sim.json',
      durationMs: null,
    });
  });

  it('takes the documented options', () => {
    const o = parse([
      '--devices',
      '50',
      '--interval',
      '2s',
      '--heatwave',
      '--url',
      'http://127.0.0.1:4000/',
      '--admin-email',
      'root@example.com',
      '--admin-password',
      'secret-pass',
      '--duration',
      '1m',
      '--seed',
      '7',
    ]);
    expect(o).toMatchObject({
      devices: 50,
      intervalMs: 2000,
      heatwave: true,
      url: 'http://127.0.0.1:4000',
      adminEmail: 'root@example.com',
      adminPassword: 'secret-pass',
      durationMs: 60_000,
      seed: 7,
    });
  });

  it("takes the owner's time zone, this machine's by default, and refuses an unknown one", () => {
    expect(parse([]).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(parse(['--time-zone', 'Europe/Berlin']).timeZone).toBe('Europe/Berlin');
    expect(() => parse(['--time-zone', 'Mars/Olympus'])).toThrow(/--time-zone must be an IANA/);
  });

  it('uploads 0 to 35 days of history first when asked, and nothing by default', () => {
    expect(parse([]).historyDays).toBe(0);
    expect(parse(['--history-days', '35']).historyDays).toBe(35);
    expect(() => parse(['--history-days', '36'])).toThrow(/from 0 to 35/);
    expect(() => parse(['--history-days', '2.5'])).toThrow(/from 0 to 35/);
  });

  it('finds the server, the admin and the state file from the environment', () => {
    const o = parse([], {
      PORT: '3100',
      DATA_DIR: '/var/lib/pawguard',
      ADMIN_EMAIL: 'ops@example.com',
      ADMIN_PASSWORD: 'from-env-1',
      SIM_OWNER_PASSWORD: 'owner-from-env-1',
    });
    expect(o.url).toBe('http://localhost:3100');
    expect(o.statePath).toBe('/var/lib/pawguard/collar-sim.json');
    expect(o.dataDir).toBe('/var/lib/pawguard');
    expect(o.adminEmail).toBe('ops@example.com');
    expect(o.adminPassword).toBe('from-env-1');
    expect(o.ownerPassword).toBe('owner-from-env-1');
  });

  it("publishes over MQTT to the server's MQTT_PORT, never a guessed port", () => {
    expect(() => parse(['--mqtt'])).toThrow(/MQTT_PORT/);
    expect(
      parse(['--mqtt', '--url', 'http://127.0.0.1:3000'], { MQTT_PORT: '18830' }).mqttUrl,
    ).toBe('mqtt://127.0.0.1:18830');
    expect(parse(['--mqtt-url', 'mqtt://10.0.0.2:2883']).mqttUrl).toBe('mqtt://10.0.0.2:2883');
    expect(() => parse(['--mqtt-url', 'http://x'])).toThrow(UsageError);
  });

  it('refuses what it cannot do, with the reason', () => {
    expect(() => parse(['--devices', '0'])).toThrow(/devices/);
    expect(() => parse(['--devices', '2.5'])).toThrow(/devices/);
    expect(() => parse(['--interval', '10ms'])).toThrow(/interval/);
    expect(() => parse(['--url', 'not a url'])).toThrow(/url/);
    expect(() => parse(['--colour', 'red'])).toThrow(UsageError);
  });

  it('takes --scenario with each of its names, and none by default', () => {
    expect(parse([]).scenario).toBeNull();
    for (const name of SCENARIO_NAMES) {
      expect(parse(['--scenario', name])).toMatchObject({ scenario: name, heatwave: false });
      expect(USAGE).toContain(name);
    }
    expect(USAGE).toContain('--scenario NAME');
  });

  it('refuses an unknown scenario, naming the ones there are', () => {
    let error: unknown;
    try {
      parse(['--scenario', 'volcano']);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/volcano/);
    for (const name of SCENARIO_NAMES) expect((error as Error).message).toContain(name);
    expect(() => parse(['--scenario'])).toThrow(UsageError);
  });

  it('refuses --scenario with --heatwave', () => {
    expect(() => parse(['--scenario', 'parked-car', '--heatwave'])).toThrow(UsageError);
    expect(() => parse(['--heatwave', '--scenario', 'parked-car'])).toThrow(
      /--scenario and --heatwave/,
    );
  });

  it('answers --help', () => {
    expect(parseOptions(['--help'], {}, '/')).toBe('help');
  });
});
