import { spawn } from 'node:child_process';
import { createCipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import https from 'node:https';
import { createRequire } from 'node:module';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import webpush, { type RequestOptions, type WebPushError } from 'web-push';
import {
  decryptAes128gcm,
  startPushReceiver,
  type PushReceiver,
  type PushSubscriptionJson,
} from '../helpers/push-receiver.js';
import { testTls, trustEnv, trustsTestCa } from '../helpers/test-ca.js';

/**
 * The local Web Push receiver the push tests rely on: a real HTTPS push service, trusted by
 * this worker through NODE_EXTRA_CA_CERTS alone (test/global-setup.ts), that decrypts what
 * web-push sends with the subscription's own keys, checks the VAPID token and refuses what a
 * push service or a browser would.
 */
let receiver: PushReceiver;
beforeAll(async () => {
  receiver = await startPushReceiver();
});
afterAll(() => receiver?.close());
// Tests that expect a refusal check `errors` themselves; none carries over to the next.
afterEach(() => {
  if (receiver) receiver.errors.length = 0;
});

const vapidKeys = webpush.generateVAPIDKeys();
const vapidDetails = {
  subject: 'mailto:alerts@pawguard.test',
  publicKey: vapidKeys.publicKey,
  privateKey: vapidKeys.privateKey,
};
const send = (sub: PushSubscriptionJson, payload: string | null, options: RequestOptions = {}) =>
  webpush.sendNotification(sub, payload, { vapidDetails, TTL: 60, ...options });
/** What a push that was refused rejects with. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the push was taken');
    },
    (e: unknown) => e as WebPushError & { code?: string },
  );
/**
 * How a client that does not trust the test CA fails (the receiver sends the CA along with its
 * certificate when its own process trusts it, so either).
 */
const UNTRUSTED = /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)$/;
const deliveriesTo = (sub: PushSubscriptionJson) =>
  receiver.received.filter((d) => d.endpoint === sub.endpoint);

describe('trust', () => {
  it("this worker trusts the run's test CA through NODE_EXTRA_CA_CERTS", () => {
    const t = testTls();
    expect(process.env.NODE_EXTRA_CA_CERTS).toBe(t.trustPath);
    expect(trustsTestCa(t)).toBe(true);
  });

  it('a request with default options reaches the receiver; one that trusts only the bundled CAs does not', async () => {
    const status = (options: https.RequestOptions) =>
      new Promise<number | string>((resolve) => {
        https
          .get(`${receiver.url}/`, options, (res) => {
            res.resume();
            resolve(res.statusCode!);
          })
          .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
    expect(await status({})).toBe(405);
    expect(await status({ agent: new https.Agent() })).toBe(405);
    expect((await fetch(`${receiver.url}/`)).status).toBe(405);
    expect(await status({ ca: tls.getCACertificates('bundled') })).toMatch(UNTRUSTED);
    expect(receiver.errors).toEqual(
      Array(3).fill(expect.stringMatching(/GET \/: pushes are POSTed/)),
    );
  });

  it('the certificate is good for localhost too', async () => {
    const local = await startPushReceiver({ host: 'localhost' });
    try {
      expect(local.url).toMatch(/^https:\/\/localhost:\d+$/);
      const sub = local.subscription();
      await send(sub, 'hello');
      const [d] = await local.waitFor(1);
      expect(d!.payload).toBe('hello');
      expect(d!.vapid.aud).toBe(local.url);
    } finally {
      await local.close();
    }
  });

  it('a child process given trustEnv() sends to the receiver; one without it cannot', async () => {
    const sub = receiver.subscription('child');
    const script = `
      const webpush = require(${JSON.stringify(createRequire(import.meta.url).resolve('web-push'))});
      webpush
        .sendNotification(${JSON.stringify(sub)}, 'from a child', {
          vapidDetails: ${JSON.stringify(vapidDetails)},
          TTL: 30,
        })
        .then((r) => console.log(r.statusCode), (e) => console.log(e.code ?? e.message));`;
    const run = (env: NodeJS.ProcessEnv) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script], { env });
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.on('error', reject);
        child.on('exit', () => resolve(out.trim()));
      });
    const { NODE_EXTRA_CA_CERTS: _inherited, ...bare } = process.env;
    expect(await run(bare)).toMatch(UNTRUSTED);
    expect(await run({ ...bare, ...trustEnv(testTls()) })).toBe('201');
    const [d] = await receiver.waitFor(1, 10_000, (x) => x.name === 'child');
    expect(d!.payload).toBe('from a child');
  });
});

describe('decryption', () => {
  it('decrypts the RFC 8291 Appendix A example', () => {
    const b = (s: string) => Buffer.from(s, 'base64url');
    const body = b(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
    const keys = {
      privateKey: b('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94'),
      publicKey: b(
        'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
      ),
      authSecret: b('BTBZMqHH6r4Tts7J_aSIgg'),
    };
    expect(decryptAes128gcm(body, keys).toString()).toBe(
      'When I grow up, I want to be a watermelon',
    );
    const tampered = Buffer.from(body);
    tampered[tampered.length - 20]! ^= 1;
    expect(() => decryptAes128gcm(tampered, keys)).toThrow();
    expect(() =>
      decryptAes128gcm(body, { ...keys, authSecret: b('AAAAAAAAAAAAAAAAAAAAAA') }),
    ).toThrow();
  });

  it('strips the padding, and refuses a record without the last-record delimiter', () => {
    // Encrypts as RFC 8291 §3.4 does, with the padding chosen here.
    const ua = createECDH('prime256v1');
    ua.generateKeys();
    const as = createECDH('prime256v1');
    as.generateKeys();
    const authSecret = randomBytes(16);
    const salt = randomBytes(16);
    const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer | string, n: number) =>
      Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from(info), n));
    const seal = (padded: Buffer) => {
      const info = Buffer.concat([
        Buffer.from('WebPush: info\0'),
        ua.getPublicKey(),
        as.getPublicKey(),
      ]);
      const ikm = hkdf(as.computeSecret(ua.getPublicKey()), authSecret, info, 32);
      const cipher = createCipheriv(
        'aes-128-gcm',
        hkdf(ikm, salt, 'Content-Encoding: aes128gcm\0', 16),
        hkdf(ikm, salt, 'Content-Encoding: nonce\0', 12),
      );
      const head = Buffer.alloc(21);
      salt.copy(head);
      head.writeUInt32BE(4096, 16);
      head[20] = 65;
      const sealed = [cipher.update(padded), cipher.final(), cipher.getAuthTag()];
      return Buffer.concat([head, as.getPublicKey(), ...sealed]);
    };
    const keys = { privateKey: ua.getPrivateKey(), publicKey: ua.getPublicKey(), authSecret };
    const text = (s: string) => Buffer.from(s, 'latin1');
    expect(decryptAes128gcm(seal(text('hi\x02\0\0\0')), keys).toString()).toBe('hi');
    expect(decryptAes128gcm(seal(text('\x02')), keys).toString()).toBe('');
    expect(() => decryptAes128gcm(seal(text('hi\x01\0')), keys)).toThrow(/delimiter/);
    expect(() => decryptAes128gcm(seal(text('hi')), keys)).toThrow(/delimiter/);
  });

  it("decrypts what web-push sends with the subscription's own keys, and keeps its headers and VAPID claims", async () => {
    const sub = receiver.subscription('rex');
    const alert = { title: 'Rex is too hot', level: 'CRITICAL', url: '/emergency' };
    const before = Math.floor(Date.now() / 1000);
    const result = await send(sub, JSON.stringify(alert), {
      TTL: 600,
      urgency: 'high',
      topic: 'heat-rex',
    });
    expect(result.statusCode).toBe(201);
    expect(result.headers.location).toMatch(new RegExp(`^${receiver.url}/message/\\d+$`));
    const [d] = await receiver.waitFor(1, 10_000, (x) => x.name === 'rex');
    expect(d).toMatchObject({
      endpoint: sub.endpoint,
      path: new URL(sub.endpoint).pathname,
      payload: alert,
      text: JSON.stringify(alert),
      reply: 201,
    });
    expect(d!.headers).toMatchObject({
      ttl: '600',
      urgency: 'high',
      topic: 'heat-rex',
      'content-encoding': 'aes128gcm',
    });
    expect(d!.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
    // salt, rs, idlen, the sender's key, then the payload with its tag and delimiter
    expect(d!.rawLength).toBe(21 + 65 + JSON.stringify(alert).length + 1 + 16);
    expect(d!.vapid).toMatchObject({
      aud: receiver.url,
      sub: vapidDetails.subject,
      k: vapidKeys.publicKey,
    });
    expect(d!.vapid.exp).toBeGreaterThan(before);
    expect(d!.vapid.exp).toBeLessThanOrEqual(before + 24 * 60 * 60 + 5);
  });

  it('a push encrypted for other keys is refused as undecryptable', async () => {
    const a = receiver.subscription();
    const b = receiver.subscription();
    const e = await refusal(send({ ...a, keys: b.keys }, 'for b'));
    expect(e.statusCode).toBe(400);
    expect(receiver.errors).toEqual([expect.stringMatching(/does not decrypt/)]);
    await expect(receiver.waitFor(1)).rejects.toThrow(/refused a push/);
  });

  it('a push in the older aesgcm encoding is refused', async () => {
    const e = await refusal(send(receiver.subscription(), 'x', { contentEncoding: 'aesgcm' }));
    expect(e.statusCode).toBe(400);
    expect(receiver.errors).toEqual([expect.stringMatching(/Content-Encoding is aesgcm/)]);
  });
});

describe('VAPID', () => {
  const sub = () => receiver.subscription();
  const withAuthorization = (s: PushSubscriptionJson, authorization: string) =>
    webpush.sendNotification(s, 'x', { TTL: 60, headers: { Authorization: authorization } });
  const header = (audience: string, publicKey = vapidKeys.publicKey) =>
    webpush
      .getVapidHeaders(
        audience,
        vapidDetails.subject,
        vapidKeys.publicKey,
        vapidKeys.privateKey,
        'aes128gcm',
      )
      .Authorization.replace(/k=[\w-]+$/, `k=${publicKey}`);

  it('a push without VAPID is refused with 401', async () => {
    const e = await refusal(webpush.sendNotification(sub(), 'x', { TTL: 60 }));
    expect(e.statusCode).toBe(401);
    expect(receiver.errors).toEqual([expect.stringMatching(/Authorization is not "vapid/)]);
  });

  it('a token for another origin is refused', async () => {
    const e = await refusal(withAuthorization(sub(), header('https://push.example.test')));
    expect(e.statusCode).toBe(401);
    expect(receiver.errors).toEqual([expect.stringMatching(/VAPID: .*aud/)]);
  });

  it('a token not signed with k is refused', async () => {
    const other = webpush.generateVAPIDKeys().publicKey;
    const e = await refusal(withAuthorization(sub(), header(receiver.url, other)));
    expect(e.statusCode).toBe(401);
    expect(receiver.errors).toEqual([expect.stringMatching(/VAPID: .*signature/)]);
    receiver.errors.length = 0;
    // the same token with its own key is taken
    expect((await withAuthorization(sub(), header(receiver.url))).statusCode).toBe(201);
  });

  it('an expired token is refused, judged by the clock it was given', async () => {
    let offset = 25 * 60 * 60 * 1000;
    const later = await startPushReceiver({ now: () => Date.now() + offset });
    try {
      const e = await refusal(send(later.subscription(), 'x'));
      expect(e.statusCode).toBe(401);
      expect(later.errors).toEqual([expect.stringMatching(/VAPID: .*exp/)]);
      later.errors.length = 0;
      offset = 0;
      await send(later.subscription(), 'x');
      expect(later.errors).toEqual([]);
    } finally {
      await later.close();
    }
  });
});

describe('answers', () => {
  it('respondWith(410) makes the next push fail with 410, and the one after is taken', async () => {
    const sub = receiver.subscription();
    receiver.respondWith(410);
    const e = await refusal(send(sub, 'gone'));
    expect(e.statusCode).toBe(410);
    expect((await send(sub, 'back')).statusCode).toBe(201);
    expect(deliveriesTo(sub).map((d) => [d.payload, d.reply])).toEqual([
      ['gone', 410],
      ['back', 201],
    ]);
  });

  it('answers 404, 500 and 429 with Retry-After, each as many times as asked', async () => {
    const sub = receiver.subscription();
    receiver.respondWith(404);
    receiver.respondWith(500, 2);
    receiver.respondWith(429, { retryAfter: 7 });
    receiver.respondWith(503);
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const r = await send(sub, `n${i}`).then(
        (ok) => [ok.statusCode, ok.headers['retry-after']],
        (e: WebPushError) => [e.statusCode, e.headers['retry-after']],
      );
      answers.push(r);
    }
    expect(answers).toEqual([
      [404, undefined],
      [500, undefined],
      [500, undefined],
      [429, '7'],
      [503, '1'],
      [201, undefined],
    ]);
  });

  it('an answer for one endpoint leaves the others alone', async () => {
    const dead = receiver.subscription('dead');
    const live = receiver.subscription('live');
    receiver.respondWith(410, { endpoint: dead.endpoint, times: Infinity });
    expect((await refusal(send(dead, '1'))).statusCode).toBe(410);
    expect((await send(live, '2')).statusCode).toBe(201);
    expect((await refusal(send(dead, '3'))).statusCode).toBe(410);
    expect(deliveriesTo(live).map((d) => d.reply)).toEqual([201]);
    expect(deliveriesTo(dead).map((d) => d.reply)).toEqual([410, 410]);
  });

  it("'reset' closes the connection and 'hang' never answers (until the receiver closes)", async () => {
    const own = await startPushReceiver();
    const sub = own.subscription();
    own.respondWith('reset');
    const reset = await refusal(send(sub, 'r'));
    expect(reset.code ?? reset.message).toMatch(/ECONNRESET|socket hang up/);
    own.respondWith('hang', 2);
    const timedOut = await refusal(send(sub, 'h1', { timeout: 1_000 }));
    expect(timedOut.message).toBe('Socket timeout');
    const hanging = refusal(send(sub, 'h2'));
    await own.waitFor(3);
    await own.close();
    expect((await hanging).code ?? (await hanging).message).toMatch(/ECONNRESET|socket hang up/);
    expect(own.received.map((d) => [d.payload, d.reply])).toEqual([
      ['r', 'reset'],
      ['h1', 'hang'],
      ['h2', 'hang'],
    ]);
  });

  it('a push to an endpoint never handed out is refused with 404', async () => {
    const sub = receiver.subscription();
    const e = await refusal(send({ ...sub, endpoint: `${receiver.url}/push/unknown` }, 'x'));
    expect(e.statusCode).toBe(404);
    expect(receiver.errors).toEqual([expect.stringMatching(/no subscription/)]);
  });

  it('waitFor resolves once n pushes came, and times out with what came', async () => {
    const sub = receiver.subscription('wait');
    const waiting = receiver.waitFor(2, 10_000, (d) => d.name === 'wait');
    await send(sub, '1');
    await send(sub, '2');
    expect((await waiting).map((d) => d.payload)).toEqual([1, 2]);
    await expect(receiver.waitFor(3, 50, (d) => d.name === 'wait')).rejects.toThrow(
      /Waited 50 ms with 2 of 3 pushes/,
    );
  });
});
