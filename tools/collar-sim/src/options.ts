// The simulator's command line, parsed without side effects so it can be tested.
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { canonicalTimeZone } from '@pawguard/shared';
import { isScenarioName, SCENARIO_NAMES, SCENARIOS, type ScenarioName } from './scenarios.js';

export interface SimOptions {
  devices: number;
  intervalMs: number;
  url: string;
  /** Set: publish over MQTT to this broker URL (the server's MQTT_PORT); else HTTP. */
  mqttUrl: string | null;
  heatwave: boolean;
  /** Set: every collar lives this named situation (never with `heatwave`). */
  scenario: ScenarioName | null;
  adminEmail: string | null;
  adminPassword: string | null;
  ownerEmail: string;
  ownerPassword: string | null;
  ownerName: string;
  statePath: string;
  dataDir: string;
  /** Stop by itself after this long; null runs until Ctrl-C. */
  durationMs: number | null;
  seed: number;
  quiet: boolean;
  /**
   * Days of ordinary life each new collar uploads before it goes live (a reading a minute:
   * walks, play, rest and nights), so activity and the health dashboard have days to show; at
   * most 35 (a server takes 7 unless its READINGS_MAX_AGE_DAYS says more).
   */
  historyDays: number;
  /**
   * The owner's time zone (IANA), given to a new owner account and to the history's days, so
   * walks and nights fall at their local hours (default: this machine's zone).
   */
  timeZone: string;
}

export const USAGE = `Usage: npm run sim -- [options]

  --devices N            virtual collars (default 10, at most 2000)
  --interval 5s          time between two readings of one collar (ms, s, m; default 5s)
  --heatwave             drive some collars into WARNING, DANGER and CRITICAL
  --scenario NAME        every collar lives one situation, for demos (not with --heatwave):
${SCENARIO_NAMES.map((name) => `    ${name.padEnd(21)} ${SCENARIOS[name].description}`).join('\n')}
  --mqtt                 publish over MQTT (QoS 1) instead of HTTP; the broker is
                         mqtt://<host of --url>:$MQTT_PORT unless --mqtt-url says otherwise
  --mqtt-url URL         the server's MQTT listener, e.g. mqtt://127.0.0.1:1884
  --url URL              the PawGuard server (default http://localhost:$PORT or :3000)
  --admin-email E        admin who pre-populates the collars (default $ADMIN_EMAIL or
                         admin@localhost)
  --admin-password P     default $ADMIN_PASSWORD, else DATA_DIR/initial-admin-password
  --owner-email E        demo owner whose pets wear the collars (default demo@pawguard.local)
  --owner-password P     default $SIM_OWNER_PASSWORD, else generated once and kept in the
                         state file (a password in the environment stays out of \`ps\`)
  --state FILE           where collars and their keys are kept between runs
                         (default DATA_DIR/collar-sim.json; DATA_DIR defaults to ./data)
  --duration 10m         stop by itself after this long (default: run until Ctrl-C)
  --history-days N       each new collar first uploads N days (0–35, default 0) of its
                         dog's ordinary life, a reading a minute: walks, rest and nights
                         (a server takes 7 unless READINGS_MAX_AGE_DAYS says more)
  --time-zone ZONE       a new owner's time zone, where the history's days and nights fall
                         (IANA, e.g. Europe/Berlin; default: this machine's)
  --seed N               replay the same dogs (default: a new seed each run)
  --quiet                no line per second, only the summary at the end
  --help                 this text`;

export class UsageError extends Error {}

/** --time-zone: an IANA zone this machine knows; this machine's own by default. */
function timeZone(value: string | undefined): string {
  if (value === undefined) return Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = canonicalTimeZone(value);
  if (zone === null)
    throw new UsageError(
      `--time-zone must be an IANA time zone such as Europe/Berlin, not '${value}'`,
    );
  return zone;
}

/**
 * --history-days: a whole number of days, 0 to 35 (the oldest reading a server can be set to
 * take, READINGS_MAX_AGE_DAYS; 7 by default).
 */
function historyDays(value: string | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 35)
    throw new UsageError(`--history-days must be a whole number from 0 to 35, not '${value}'`);
  return n;
}

/** parseArgs, strict, with its complaints as UsageError (the CLIs print those with their usage). */
export function parseArgsOrUsage<const O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** '5s', '500ms', '2m', '1h' or a bare number of seconds → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new UsageError(`Not a duration: '${text}' (use e.g. 500ms, 5s, 2m)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] ?? 1000;
  return Math.round(Number(m[1]) * unit);
}

/** `--name`'s value as a whole number from `min` to `max`. Throws UsageError. */
export function wholeNumber(text: string, name: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

const positiveInt = (text: string, name: string, max: number) => wholeNumber(text, name, 1, max);

/** Options from argv (without node and script) and the environment. Throws UsageError. */
export function parseOptions(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
): SimOptions | 'help' {
  const values = parseArgsOrUsage(argv, {
    devices: { type: 'string' },
    interval: { type: 'string' },
    heatwave: { type: 'boolean' },
    scenario: { type: 'string' },
    mqtt: { type: 'boolean' },
    'mqtt-url': { type: 'string' },
    url: { type: 'string' },
    'admin-email': { type: 'string' },
    'admin-password': { type: 'string' },
    'owner-email': { type: 'string' },
    'owner-password': { type: 'string' },
    'owner-name': { type: 'string' },
    state: { type: 'string' },
    duration: { type: 'string' },
    seed: { type: 'string' },
    'history-days': { type: 'string' },
    'time-zone': { type: 'string' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';

  const url = (values.url ?? `http://localhost:${env.PORT || 3000}`).replace(/\/+$/, '');
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new UsageError(`--url must be a URL such as http://localhost:3000, not '${url}'`);
  }
  const intervalMs = parseDuration(values.interval ?? '5s');
  if (intervalMs < 100) throw new UsageError('--interval must be at least 100ms');

  let mqttUrl: string | null = null;
  if (values['mqtt-url']) {
    if (!/^mqtts?:\/\//.test(values['mqtt-url']))
      throw new UsageError('--mqtt-url must start with mqtt:// or mqtts://');
    mqttUrl = values['mqtt-url'];
  } else if (values.mqtt) {
    // Never guess 1883: that is usually some other broker, not the PawGuard server.
    if (!env.MQTT_PORT)
      throw new UsageError(
        "--mqtt needs the server's MQTT port: set MQTT_PORT as the server has it, or pass --mqtt-url mqtt://host:port",
      );
    mqttUrl = `mqtt://${parsedUrl.hostname}:${positiveInt(env.MQTT_PORT, 'MQTT_PORT', 65535)}`;
  }

  let scenario: ScenarioName | null = null;
  if (values.scenario !== undefined) {
    if (!isScenarioName(values.scenario))
      throw new UsageError(
        `Unknown scenario '${values.scenario}': --scenario must be one of ${SCENARIO_NAMES.join(', ')}`,
      );
    if (values.heatwave)
      throw new UsageError(
        '--scenario and --heatwave cannot be combined: a scenario sets the day of every collar',
      );
    scenario = values.scenario;
  }

  const dataDir = path.resolve(cwd, env.DATA_DIR || './data');
  return {
    devices: positiveInt(values.devices ?? '10', 'devices', 2000),
    intervalMs,
    url,
    mqttUrl,
    heatwave: values.heatwave ?? false,
    scenario,
    adminEmail: values['admin-email'] ?? env.ADMIN_EMAIL ?? null,
    adminPassword: values['admin-password'] ?? env.ADMIN_PASSWORD ?? null,
    ownerEmail: (values['owner-email'] ?? 'demo@pawguard.local').toLowerCase(),
    ownerPassword: values['owner-password'] ?? (env.SIM_OWNER_PASSWORD || null),
    ownerName: values['owner-name'] ?? 'Demo Owner',
    statePath: path.resolve(cwd, values.state ?? path.join(dataDir, 'collar-sim.json')),
    dataDir,
    durationMs: values.duration ? parseDuration(values.duration) : null,
    seed: values.seed ? positiveInt(values.seed, 'seed', 2 ** 31) : Date.now() % 2 ** 31,
    quiet: values.quiet ?? false,
    historyDays: historyDays(values['history-days']),
    timeZone: timeZone(values['time-zone']),
  };
}
