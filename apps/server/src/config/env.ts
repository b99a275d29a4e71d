import { z } from 'zod';
import net from 'node:net';
import path from 'node:path';
import { MAX_READING_AGE_MS } from '@pawguard/shared';
import { SUPPORT_CONTACT } from '@pawguard/shared/content';
import { DEFAULT_READINGS_QUOTA } from '../services/ingest-budget.js';
import { MINUTE_ROLLUP_RETENTION_DAYS } from '../services/rollups.js';
import { isCommonPassword } from '../services/common-passwords.js';

const MAX_AGE_DAYS_MESSAGE = `must be a whole number of days from 1 to ${MINUTE_ROLLUP_RETENTION_DAYS}`;

/**
 * Every setting the server reads, parsed and validated once at start-up. This is the only
 * module that reads process.env; each variable is documented in .env.example.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** An IPv4/IPv6 address, optionally with a /prefix (CIDR). */
export function isAddressOrCidr(entry: string): boolean {
  const [addr, prefix, ...rest] = entry.split('/');
  const family = net.isIP(addr ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const urlWithProtocols = (protocols: string[]) =>
  optionalString.refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
    message: `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
  });

const PORT_MESSAGE = { error: 'must be a port number (0-65535)' };

/** A port number, or unset (an empty value counts as unset); 0 asks for any free port. */
const optionalPort = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.coerce
    .number(PORT_MESSAGE)
    .int(PORT_MESSAGE)
    .min(0, PORT_MESSAGE)
    .max(65535, PORT_MESSAGE)
    .optional(),
);

const envSchema = z
  .object({
    PORT: z.coerce
      .number({ error: 'must be a port number (0-65535)' })
      .int({ error: 'must be a port number (0-65535)' })
      .min(0, { error: 'must be a port number (0-65535)' })
      .max(65535, { error: 'must be a port number (0-65535)' })
      .default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: urlWithProtocols(['postgres', 'postgresql']),
    JWT_SECRET: optionalString.refine((v) => v === undefined || Buffer.byteLength(v) >= 32, {
      message: 'must be at least 32 bytes (256 bits) of random data',
    }),
    SMTP_URL: urlWithProtocols(['smtp', 'smtps']),
    MAIL_FROM: z.string().default('PawGuard <alerts@pawguard.local>'),
    // Unset: no MQTT listener. Set: collars connect to this server itself on that port (0: any
    // free port, for tests).
    MQTT_PORT: optionalPort,
    // Caps on open MQTT connections: overall, and from one remote address (0: none, e.g.
    // behind a TCP balancer that hides the collars' addresses).
    MQTT_MAX_CONNECTIONS: z.coerce
      .number({ error: 'must be a whole number of connections (1 or more)' })
      .int({ error: 'must be a whole number of connections (1 or more)' })
      .min(1, { error: 'must be a whole number of connections (1 or more)' })
      .default(2000),
    MQTT_MAX_CONNECTIONS_PER_ADDRESS: z.coerce
      .number({ error: 'must be a whole number of connections (0 for no cap)' })
      .int({ error: 'must be a whole number of connections (0 for no cap)' })
      .min(0, { error: 'must be a whole number of connections (0 for no cap)' })
      .default(50),
    MQTT_MAX_PENDING_CONNECTIONS: z.coerce
      .number({ error: 'must be a whole number of connections (1 or more)' })
      .int({ error: 'must be a whole number of connections (1 or more)' })
      .min(1, { error: 'must be a whole number of connections (1 or more)' })
      .default(100),
    // GET /metrics: on a port of its own (METRICS_PORT), and/or behind a bearer token
    // (METRICS_TOKEN). With neither, the figures are not served at all.
    METRICS_PORT: optionalPort,
    // Where METRICS_PORT listens: loopback unless set, so the figures reach no other network
    // by accident (HOST is everyone's by default).
    METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
    METRICS_TOKEN: optionalString.refine(
      (v) => v === undefined || (v.length >= 16 && /^[\x21-\x7e]+$/.test(v)),
      {
        message:
          'must be at least 16 printable characters without spaces (e.g. openssl rand -hex 24)',
      },
    ),
    // Free disk space below which GET /api/health/ready answers 503 (megabytes in DATA_DIR).
    READY_MIN_FREE_MB: z.coerce
      .number({ error: 'must be a whole number of megabytes (0 or more)' })
      .int({ error: 'must be a whole number of megabytes (0 or more)' })
      .min(0, { error: 'must be a whole number of megabytes (0 or more)' })
      .default(100),
    READINGS_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a whole number of days (1 or more)' })
      .int({ error: 'must be a whole number of days (1 or more)' })
      .min(1, { error: 'must be a whole number of days (1 or more)' })
      .default(30),
    // How far back a collar's upload may reach (decision 0022: a collar holds about a week).
    // At most the 35 days minute rollups are kept: a reading older than that has nothing
    // left to be summed into.
    READINGS_MAX_AGE_DAYS: z.coerce
      .number({ error: MAX_AGE_DAYS_MESSAGE })
      .int({ error: MAX_AGE_DAYS_MESSAGE })
      .min(1, { error: MAX_AGE_DAYS_MESSAGE })
      .max(MINUTE_ROLLUP_RETENTION_DAYS, { error: MAX_AGE_DAYS_MESSAGE })
      .default(MAX_READING_AGE_MS / 86_400_000),
    // Readings kept per owner account; over it, new readings are refused (429) until older
    // ones expire (decision 0039).
    READINGS_QUOTA_PER_ACCOUNT: z.coerce
      .number({ error: 'must be a whole number of readings (1 or more)' })
      .int({ error: 'must be a whole number of readings (1 or more)' })
      .min(1, { error: 'must be a whole number of readings (1 or more)' })
      .default(DEFAULT_READINGS_QUOTA),
    REDIS_URL: urlWithProtocols(['redis', 'rediss']),
    // Any local@domain, so the default admin@localhost can also be set explicitly.
    ADMIN_EMAIL: z
      .string()
      .trim()
      .regex(/^[^\s@]+@[^\s@]+$/, {
        message: 'must be an e-mail address such as admin@example.com',
      })
      .default('admin@localhost'),
    ADMIN_PASSWORD: optionalString
      .refine((v) => v === undefined || (v.length >= 8 && v.length <= 128), {
        message: 'must be 8 to 128 characters',
      })
      // The rule sign-up follows (AUTH-3), for the account that can do everything.
      .refine((v) => v === undefined || !isCommonPassword(v), {
        message: 'is one of the most common passwords: choose a longer or less usual one',
      }),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    PUBLIC_URL: optionalString.refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: 'must start with http:// or https://',
    }),
    // The Support page's contacts; unset, the documented samples (555-01xx numbers are fictional).
    SUPPORT_EMAIL: optionalString.refine(
      (v) => v === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
      {
        message: 'must be an e-mail address such as support@example.com',
      },
    ),
    SUPPORT_PHONE: optionalString.refine(
      (v) =>
        v === undefined || (/^\+?[\d\s().-]{7,30}$/.test(v) && v.replace(/\D/g, '').length >= 7),
      {
        message:
          'must be a phone number of at least 7 digits, such as (800) 555-0142 or +44 20 7946 0000',
      },
    ),
    // The reverse proxies whose X-Forwarded-For is believed; unset: none (the socket decides).
    TRUST_PROXY: optionalString
      .transform((v) =>
        v === undefined
          ? []
          : v
              .split(',')
              .map((e) => e.trim())
              .filter(Boolean),
      )
      .refine((list) => list.every(isAddressOrCidr), {
        message:
          'must be a comma-separated list of IP addresses or CIDR ranges, e.g. 10.0.0.1,192.168.0.0/16',
      }),
    RATE_LIMIT_MULTIPLIER: z.coerce
      .number({ error: 'must be a positive number' })
      .positive({ error: 'must be a positive number' })
      .default(1),
    // The VAPID key pair pushes are signed with (both or neither; unset: one generated once into
    // DATA_DIR), and who the push services may contact about them (mailto: or https:).
    VAPID_PUBLIC_KEY: optionalString.refine(
      (v) => v === undefined || /^[A-Za-z0-9_-]{87}$/.test(v),
      {
        message:
          'must be a P-256 public key, base64url (87 characters), e.g. from `npx web-push generate-vapid-keys`',
      },
    ),
    VAPID_PRIVATE_KEY: optionalString.refine(
      (v) => v === undefined || /^[A-Za-z0-9_-]{43}$/.test(v),
      {
        message: 'must be a P-256 private key, base64url (43 characters)',
      },
    ),
    VAPID_SUBJECT: optionalString.refine(
      (v) => v === undefined || /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(v),
      { message: 'must be a mailto: or https: address, e.g. mailto:ops@example.com' },
    ),
    // 1: push endpoints on loopback and private addresses are allowed too (tests, local demos).
    PUSH_ALLOW_PRIVATE_ENDPOINTS: z
      .enum(['0', '1', ''], { error: 'must be 1 or 0' })
      .optional()
      .transform((v) => v === '1'),
  })
  .superRefine((env, ctx) => {
    if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
        message:
          'is required with the other VAPID key: set both, or neither (one pair is generated)',
      });
    }
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message:
          'is required when DATABASE_URL is set, so that every instance accepts the same tokens',
      });
    }
    // Port 0 asks the system for any free port, a different one each time.
    if (env.MQTT_PORT !== undefined && env.MQTT_PORT !== 0 && env.MQTT_PORT === env.PORT) {
      ctx.addIssue({
        code: 'custom',
        path: ['MQTT_PORT'],
        message: 'must differ from PORT: the web app and the collars over MQTT each need a port',
      });
    }
    if (
      env.METRICS_PORT !== undefined &&
      env.METRICS_PORT !== 0 &&
      (env.METRICS_PORT === env.PORT || env.METRICS_PORT === env.MQTT_PORT)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT and MQTT_PORT: the metrics have a listener of their own',
      });
    }
  });

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mqttPort: number | undefined;
  /** Open MQTT connections at most, and from one address (0: no cap per address). */
  mqttMaxConnections: number;
  mqttMaxConnectionsPerAddress: number;
  /** Connections that have not yet sent (or passed) their CONNECT; past it the oldest closes. */
  mqttMaxPendingConnections: number;
  /** A listener of its own serving only GET /metrics; unset: none. */
  metricsPort: number | undefined;
  /** The address METRICS_PORT listens on (loopback unless METRICS_HOST says otherwise). */
  metricsHost: string;
  /** The bearer token GET /metrics asks for; unset: none asked (then only on metricsPort). */
  metricsToken: string | undefined;
  /** Free megabytes in DATA_DIR below which the server is not ready. */
  readyMinFreeMb: number;
  readingsRetentionDays: number;
  /** Days back a reading's timestamp may be (READINGS_MAX_AGE_DAYS, default 7). */
  readingsMaxAgeDays: number;
  /** Readings kept per owner account before new ones are refused. */
  readingsQuotaPerAccount: number;
  redisUrl: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  logLevel: string;
  publicUrl: string;
  rateLimitMultiplier: number;
  supportEmail: string;
  supportPhone: string;
  /** Proxy addresses or CIDRs whose X-Forwarded-For is trusted; empty: trust none. */
  trustProxy: string[];
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; undefined: a pair kept in DATA_DIR. */
  vapid: { publicKey: string; privateKey: string } | undefined;
  /** Who push services may contact (VAPID_SUBJECT; default: mailto: the support address). */
  vapidSubject: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS=1: loopback and private push endpoints are allowed too. */
  pushAllowPrivateEndpoints: boolean;
};

export class ConfigError extends Error {}

/**
 * Loads `dir`/.env into the environment when the file is there (Node's own parser), before
 * anything reads it. A variable already set in the environment keeps its value, even an empty
 * one: what the process manager or the shell sets wins over the file. Answers the file loaded.
 */
export function loadEnvFile(dir: string = process.cwd()): string | undefined {
  const file = path.join(dir, '.env');
  try {
    process.loadEnvFile(file);
    return file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`Cannot read ${file}: ${(err as Error).message}`);
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    mqttPort: e.MQTT_PORT,
    mqttMaxConnections: e.MQTT_MAX_CONNECTIONS,
    mqttMaxConnectionsPerAddress: e.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
    mqttMaxPendingConnections: e.MQTT_MAX_PENDING_CONNECTIONS,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    metricsToken: e.METRICS_TOKEN,
    readyMinFreeMb: e.READY_MIN_FREE_MB,
    readingsRetentionDays: e.READINGS_RETENTION_DAYS,
    readingsMaxAgeDays: e.READINGS_MAX_AGE_DAYS,
    readingsQuotaPerAccount: e.READINGS_QUOTA_PER_ACCOUNT,
    redisUrl: e.REDIS_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    supportEmail: e.SUPPORT_EMAIL ?? SUPPORT_CONTACT.email,
    supportPhone: e.SUPPORT_PHONE ?? SUPPORT_CONTACT.phone,
    trustProxy: e.TRUST_PROXY,
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${e.SUPPORT_EMAIL ?? SUPPORT_CONTACT.email}`,
    pushAllowPrivateEndpoints: e.PUSH_ALLOW_PRIVATE_ENDPOINTS,
  };
}
