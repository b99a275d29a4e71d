import { z } from 'zod';
import net from 'node:net';
import path from 'node:path';

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
    MQTT_URL: urlWithProtocols(['mqtt', 'mqtts', 'ws', 'wss']),
    REDIS_URL: urlWithProtocols(['redis', 'rediss']),
    // Any local@domain, so the default admin@localhost can also be set explicitly.
    ADMIN_EMAIL: z
      .string()
      .trim()
      .regex(/^[^\s@]+@[^\s@]+$/, {
        message: 'must be an e-mail address such as admin@example.com',
      })
      .default('admin@localhost'),
    ADMIN_PASSWORD: optionalString.refine(
      (v) => v === undefined || (v.length >= 8 && v.length <= 128),
      {
        message: 'must be 8 to 128 characters',
      },
    ),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    PUBLIC_URL: optionalString.refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: 'must start with http:// or https://',
    }),
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
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message:
          'is required when DATABASE_URL is set, so that every instance accepts the same tokens',
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
  mqttUrl: string | undefined;
  redisUrl: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  logLevel: string;
  publicUrl: string;
  rateLimitMultiplier: number;
  /** Proxy addresses or CIDRs whose X-Forwarded-For is trusted; empty: trust none. */
  trustProxy: string[];
};

export class ConfigError extends Error {}

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
    mqttUrl: e.MQTT_URL,
    redisUrl: e.REDIS_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    trustProxy: e.TRUST_PROXY,
  };
}
