import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { jwtVerify } from 'jose';
import { testTls, trustsTestCa, type TestTls } from './test-ca.js';

/** A browser's PushSubscription, as `subscription.toJSON()` gives it to the app. */
export interface PushSubscriptionJson {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

/** The VAPID token's claims (RFC 8292), after its signature was checked against `k`. */
export interface VapidClaims {
  aud: string;
  sub: string;
  exp: number;
  /** The application server's public key the token was signed with (base64url). */
  k: string;
}

/** How the receiver answers a push: a status code, no answer at all, or a reset connection. */
export type PushReply = number | 'hang' | 'reset';

/** One push that arrived well formed and was decrypted, whatever the receiver answered. */
export interface PushDelivery {
  /** The endpoint's path, `/push/…`. */
  path: string;
  endpoint: string;
  /** The name given to `subscription(name)`. */
  name: string | undefined;
  /** As sent: `ttl`, `urgency`, `topic`, `content-encoding`, `authorization`, … */
  headers: IncomingHttpHeaders;
  vapid: VapidClaims;
  /** The decrypted payload: parsed when it is JSON, else the text (undefined for no body). */
  payload: unknown;
  /** The decrypted payload as text. */
  text: string;
  /** The encrypted body's size in bytes. */
  rawLength: number;
  reply: PushReply;
  /** When it arrived (ms since the epoch): the bench times pushes by it. */
  at: number;
}

export interface RespondOptions {
  /** How many pushes get this answer (1 unless given; Infinity for every one from now on). */
  times?: number;
  /** Only pushes to this endpoint (one from `subscription()`); any endpoint unless given. */
  endpoint?: string;
  /** Seconds sent in Retry-After (with 429 and 503 always: 1 unless given). */
  retryAfter?: number;
}

export interface PushReceiver {
  /** https://127.0.0.1:<port> (or https://localhost:<port>): the origin VAPID tokens name. */
  url: string;
  /** A new subscription with its own P-256 key pair and 16-byte auth secret, kept here. */
  subscription(name?: string): PushSubscriptionJson;
  /** Every push that arrived well formed, in order. */
  received: PushDelivery[];
  /**
   * Pushes refused as a real push service or browser would (answered 400, 401, 404 or 413):
   * bad VAPID, bad encryption, missing TTL, an endpoint never handed out. Any makes waitFor fail.
   */
  errors: string[];
  /**
   * The next pushes (`times`, default 1) get `reply` instead of 201: 410 or 404 (subscription
   * gone), 500, 429 (with Retry-After), 'hang' (never answered) or 'reset' (connection closed).
   * Queued replies are used in order.
   */
  respondWith(reply: PushReply, options?: number | RespondOptions): void;
  /**
   * Resolves with the deliveries matching `filter` (all unless given) once there are `n` of
   * them; rejects at once if a push was refused, or after `timeoutMs`.
   */
  waitFor(
    n: number,
    timeoutMs?: number,
    filter?: (d: PushDelivery) => boolean,
  ): Promise<PushDelivery[]>;
  close(): Promise<void>;
}

export interface PushReceiverOptions {
  /** The host in `url` and in the endpoints (the receiver listens on 127.0.0.1 either way). */
  host?: '127.0.0.1' | 'localhost';
  /** What a VAPID token's `exp` is judged against, in ms since the epoch (the real time unless given). */
  now?: () => number;
  /**
   * The certificate to serve; the run's test CA (test/global-setup.ts) unless given. With the
   * default, this process must trust it (it throws otherwise): the code under test runs here.
   */
  tls?: TestTls;
}

/** The keys a subscription's browser holds, to decrypt what is pushed to it (RFC 8291). */
export interface UserAgentKeys {
  /** The P-256 private key: 32 bytes. */
  privateKey: Buffer;
  /** Its public key, uncompressed: 65 bytes (keys.p256dh). */
  publicKey: Buffer;
  /** keys.auth: 16 bytes. */
  authSecret: Buffer;
}

/** RFC 8030 §7.2: push services take at least 4,096 bytes a message; the usual limit. */
const MAX_BODY = 4096;
const URGENCIES = ['very-low', 'low', 'normal', 'high'];
/** RFC 8292 §2: a VAPID token expires no more than 24 hours ahead. */
const MAX_VAPID_LIFETIME_S = 24 * 60 * 60;

const hkdf = (ikm: Buffer, salt: Buffer, info: string | Buffer, length: number) =>
  Buffer.from(
    hkdfSync('sha256', ikm, salt, typeof info === 'string' ? Buffer.from(info) : info, length),
  );

/**
 * Decrypts an aes128gcm Web Push body (RFC 8291 §3.4, RFC 8188 §2) as a browser does: the
 * header's salt(16) rs(4) idlen(1) keyid(the sender's public key, 65); one record whose
 * padding ends in the 0x02 delimiter. Throws on anything else.
 */
export function decryptAes128gcm(body: Buffer, keys: UserAgentKeys): Buffer {
  if (body.length < 21) throw new Error(`body of ${body.length} bytes is shorter than its header`);
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (idlen !== 65) throw new Error(`keyid of ${idlen} bytes is not a P-256 public key (65)`);
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (rs < 18) throw new Error(`record size ${rs} is below the minimum 18`);
  // RFC 8291 §4: a push message is one record.
  if (record.length > rs) throw new Error(`ciphertext of ${record.length} bytes exceeds rs ${rs}`);
  if (record.length < 17)
    throw new Error(`ciphertext of ${record.length} bytes has no room for a tag`);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(keys.privateKey);
  const shared = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, asPublic]);
  const ikm = hkdf(shared, keys.authSecret, keyInfo, 32);
  const cek = hkdf(ikm, salt, 'Content-Encoding: aes128gcm\0', 16);
  const nonce = hkdf(ikm, salt, 'Content-Encoding: nonce\0', 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(-16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, -16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2)
    throw new Error('the record does not end with the last-record delimiter 0x02');
  return padded.subarray(0, end);
}

/**
 * Checks a VAPID Authorization header (RFC 8292 §3): `vapid t=<JWT>, k=<public key>`, the JWT
 * ES256-signed with k, for the audience `origin`, not expired nor more than 24 hours ahead, with
 * a mailto: or https: subject.
 */
export async function verifyVapid(
  authorization: string | undefined,
  origin: string,
  now: number = Date.now(),
): Promise<VapidClaims> {
  const m = /^vapid\s+t=([\w-]+\.[\w-]+\.[\w-]+)\s*,\s*k=([\w-]+)$/i.exec(authorization ?? '');
  if (!m) throw new Error(`Authorization is not "vapid t=…, k=…": ${authorization ?? '(none)'}`);
  const [, token, k] = m as unknown as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4)
    throw new Error('k is not an uncompressed P-256 public key');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const { payload } = await jwtVerify(token, key, {
    algorithms: ['ES256'],
    audience: origin,
    requiredClaims: ['aud', 'exp', 'sub'],
    currentDate: new Date(now),
  });
  const { aud, sub, exp } = payload as { aud: string; sub: unknown; exp: number };
  if (exp - now / 1000 > MAX_VAPID_LIFETIME_S)
    throw new Error(`exp is ${Math.round(exp - now / 1000)} s ahead, more than 24 hours`);
  if (typeof sub !== 'string' || !/^(mailto:|https:\/\/)/.test(sub))
    throw new Error(`sub ${String(sub)} is neither a mailto: nor an https: URL`);
  return { aud, sub, exp, k };
}

interface Subscription {
  name: string | undefined;
  keys: UserAgentKeys;
}

interface Scripted {
  reply: PushReply;
  left: number;
  endpoint: string | undefined;
  retryAfter: number | undefined;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const header = (h: string | string[] | undefined) => (Array.isArray(h) ? h.join(', ') : h);

/**
 * A real Web Push service on loopback, over HTTPS with the run's test CA: it hands out
 * subscriptions whose keys it holds, checks each push's VAPID token and headers (RFC 8030,
 * 8292), decrypts its payload (RFC 8291) and keeps it; `respondWith` makes it answer as push
 * services do when a subscription is gone, they fail or they throttle.
 */
export async function startPushReceiver(opts: PushReceiverOptions = {}): Promise<PushReceiver> {
  const tlsFiles = opts.tls ?? testTls();
  if (!opts.tls && !trustsTestCa(tlsFiles))
    throw new Error(
      'This process does not trust the test CA: NODE_EXTRA_CA_CERTS must name it when the process starts (test/global-setup.ts sets it before vitest forks its workers; a pool of threads cannot).',
    );
  const now = opts.now ?? Date.now;
  const subscriptions = new Map<string, Subscription>();
  const received: PushDelivery[] = [];
  const errors: string[] = [];
  const scripted: Scripted[] = [];
  const waiters = new Set<(end?: 'timed out' | 'closed') => void>();
  const sockets = new Set<net.Socket>();
  let messages = 0;
  const changed = () => {
    for (const w of [...waiters]) w();
  };

  const server = https.createServer({
    key: fs.readFileSync(tlsFiles.keyPath),
    cert: fs.readFileSync(tlsFiles.certPath),
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = `https://${opts.host ?? '127.0.0.1'}:${port}`;

  const nextReply = (endpoint: string): Scripted | undefined => {
    const i = scripted.findIndex((s) => s.endpoint === undefined || s.endpoint === endpoint);
    if (i < 0) return undefined;
    const s = scripted[i]!;
    if (--s.left <= 0) scripted.splice(i, 1);
    return s;
  };

  const accept = async (req: IncomingMessage, body: Buffer): Promise<PushDelivery> => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method !== 'POST') throw new Refusal(405, `${req.method} ${path}: pushes are POSTed`);
    const sub = subscriptions.get(path);
    if (!sub) throw new Refusal(404, `POST ${path}: no subscription was handed out there`);
    const h = req.headers;
    if (body.length > MAX_BODY)
      throw new Refusal(413, `POST ${path}: a body of ${body.length} bytes (at most ${MAX_BODY})`);
    const ttl = header(h.ttl);
    if (ttl === undefined || !/^\d+$/.test(ttl))
      throw new Refusal(400, `POST ${path}: TTL is ${String(ttl)} (RFC 8030 requires seconds)`);
    const urgency = header(h.urgency);
    if (urgency !== undefined && !URGENCIES.includes(urgency))
      throw new Refusal(400, `POST ${path}: Urgency ${urgency} is none of ${URGENCIES.join(', ')}`);
    const topic = header(h.topic);
    if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic))
      throw new Refusal(400, `POST ${path}: Topic ${topic} is not at most 32 base64url characters`);
    const encoding = header(h['content-encoding']);
    if (body.length > 0 && encoding !== 'aes128gcm')
      throw new Refusal(
        400,
        `POST ${path}: Content-Encoding is ${String(encoding)}, not aes128gcm`,
      );
    let vapid: VapidClaims;
    try {
      vapid = await verifyVapid(header(h.authorization), url, now());
    } catch (e) {
      throw new Refusal(401, `POST ${path}: VAPID: ${(e as Error).message}`);
    }
    let text = '';
    let payload: unknown = undefined;
    if (body.length > 0) {
      try {
        text = decryptAes128gcm(body, sub.keys).toString('utf8');
      } catch (e) {
        throw new Refusal(
          400,
          `POST ${path}: the payload does not decrypt: ${(e as Error).message}`,
        );
      }
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
    }
    return {
      path,
      endpoint: `${url}${path}`,
      name: sub.name,
      headers: h,
      vapid,
      payload,
      text,
      rawLength: body.length,
      reply: 201,
      at: Date.now(),
    };
  };

  const answer = (res: ServerResponse, status: number, retryAfter?: number) => {
    const headers: Record<string, string> = { 'content-type': 'text/plain' };
    if (retryAfter !== undefined || status === 429 || status === 503)
      headers['retry-after'] = String(retryAfter ?? 1);
    if (status === 201) headers.location = `${url}/message/${++messages}`;
    res.writeHead(status, headers).end(status < 300 ? '' : `status ${status}`);
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('error', () => {}); // a sender that gives up mid-body: nothing arrived
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      accept(req, Buffer.concat(chunks)).then(
        (delivery) => {
          const script = nextReply(delivery.endpoint);
          delivery.reply = script?.reply ?? 201;
          received.push(delivery);
          changed();
          if (delivery.reply === 'hang') return; // left open: close() ends it
          if (delivery.reply === 'reset') return void req.socket.destroy();
          answer(res, delivery.reply, script?.retryAfter);
        },
        (e: unknown) => {
          const refusal = e instanceof Refusal ? e : new Refusal(400, String(e));
          errors.push(refusal.message);
          changed();
          answer(res, refusal.status);
        },
      );
    });
  });

  return {
    url,
    subscription(name) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const keys = {
        privateKey: ecdh.getPrivateKey(),
        publicKey: ecdh.getPublicKey(),
        authSecret: randomBytes(16),
      };
      const path = `/push/${randomBytes(16).toString('base64url')}`;
      subscriptions.set(path, { name, keys });
      return {
        endpoint: `${url}${path}`,
        expirationTime: null,
        keys: {
          p256dh: keys.publicKey.toString('base64url'),
          auth: keys.authSecret.toString('base64url'),
        },
      };
    },
    received,
    errors,
    respondWith(reply, options) {
      const o = typeof options === 'number' ? { times: options } : (options ?? {});
      scripted.push({
        reply,
        left: o.times ?? 1,
        endpoint: o.endpoint,
        retryAfter: o.retryAfter,
      });
    },
    waitFor(n, timeoutMs = 10_000, filter = () => true) {
      return new Promise((resolve, reject) => {
        const waiter = (end?: 'timed out' | 'closed') => {
          const matching = received.filter(filter);
          let failure: string | undefined;
          if (errors.length > 0) failure = `The push receiver refused a push: ${errors.join('; ')}`;
          else if (matching.length >= n) failure = undefined;
          else if (end)
            failure = `${end === 'closed' ? 'Closed' : `Waited ${timeoutMs} ms`} with ${matching.length} of ${n} pushes (${received.length} in all)`;
          else return;
          waiters.delete(waiter);
          clearTimeout(timer);
          if (failure !== undefined) reject(new Error(failure));
          else resolve(matching);
        };
        const timer = setTimeout(() => waiter('timed out'), timeoutMs);
        waiters.add(waiter);
        waiter();
      });
    },
    close() {
      scripted.length = 0;
      for (const w of [...waiters]) w('closed');
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
