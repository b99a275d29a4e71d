import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT, decodeJwt, generateKeyPair, exportSPKI } from 'jose';
import {
  bearer,
  createTestApp,
  login,
  seedUser,
  TEST_PASSWORD,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { craftToken, expectError } from '../helpers/api.js';
import { loadConfig, ConfigError } from '../../src/config/env.js';
import { resolveJwtSecret } from '../../src/bootstrap.js';

let t: TestApp;
let u: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  u = await seedUser(t);
});
afterAll(() => t.close());

const profileWith = (token: string) =>
  t.app.inject({ url: '/api/auth/profile', headers: bearer(token) });
const expectRefused = async (token: string) =>
  expectError(await profileWith(token), 401, 'Authentication required');
const nowS = () => Math.floor(Date.now() / 1000);

describe('a crafted token with the right key and claims is accepted (control for the rows below)', () => {
  it('answers 200', async () => {
    expect((await profileWith(await craftToken(u.token))).statusCode).toBe(200);
  });
});

describe('SESS-1: verification pins HS256 and the key', () => {
  it('refuses alg:none', async () => {
    const claims = decodeJwt(u.token);
    await expectRefused(new UnsecuredJWT(claims).encode());
  });

  it('refuses a token with no signature part', async () => {
    const [h, p] = u.token.split('.');
    await expectRefused(`${h}.${p}.`);
    await expectRefused(`${h}.${p}`);
  });

  it('refuses a bad signature', async () => {
    const [h, p, s] = u.token.split('.');
    const flipped = s![0] === 'A' ? `B${s!.slice(1)}` : `A${s!.slice(1)}`;
    await expectRefused(`${h}.${p}.${flipped}`);
  });

  it('refuses HS384 and HS512 even with the right key', async () => {
    await expectRefused(await craftToken(u.token, { alg: 'HS384' }));
    await expectRefused(await craftToken(u.token, { alg: 'HS512' }));
  });

  it('refuses RS256, and an HS256 token keyed with an RSA public key (key confusion)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT(decodeJwt(u.token))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .sign(privateKey);
    await expectRefused(rs);
    await expectRefused(await craftToken(u.token, { secret: await exportSPKI(publicKey) }));
  });

  it('refuses a token signed with another key', async () => {
    await expectRefused(
      await craftToken(u.token, { secret: 'another-secret-that-is-also-long-enough-000' }),
    );
  });
});

describe('SESS-2: the signing key is strong and never hard-coded', () => {
  it('refuses to start with a JWT_SECRET shorter than 32 bytes', () => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(31) })).toThrow(ConfigError);
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(31) })).toThrow(
      /JWT_SECRET: must be at least 32 bytes/,
    );
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
  });

  it('requires JWT_SECRET with DATABASE_URL, so all instances accept the same tokens', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/x' })).toThrow(
      /JWT_SECRET: is required when DATABASE_URL is set/,
    );
  });

  it('generates a random secret once into DATA_DIR (mode 0600) and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = resolveJwtSecret(config);
      const file = path.join(dir, 'jwt-secret');
      expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(resolveJwtSecret(config)).toBe(first);
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-secret-'));
      expect(resolveJwtSecret(loadConfig({ DATA_DIR: other }))).not.toBe(first);
      fs.rmSync(other, { recursive: true, force: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SESS-3: exp is required and enforced', () => {
  it('refuses a token without exp', async () => {
    await expectRefused(await craftToken(u.token, { exp: null }));
  });

  it('refuses a token that expired a minute ago', async () => {
    await expectRefused(await craftToken(u.token, { exp: nowS() - 61 }));
  });

  it('refuses a token whose session has passed its lifetime (12 h), by the server clock', async () => {
    const fresh = await seedUser(t);
    t.clock.advance(12 * 60 * 60 * 1000 + 1000);
    try {
      await expectRefused(fresh.token);
    } finally {
      t.clock.advance(-(12 * 60 * 60 * 1000 + 1000));
    }
    expect((await profileWith(fresh.token)).statusCode).toBe(200);
  });
});

describe('SESS-4: only our access tokens are accepted', () => {
  it.each([
    ['another typ', { claims: { typ: 'refresh' } }],
    ['another audience', { claims: { aud: 'pawguard-device' } }],
    ['another issuer', { claims: { iss: 'someone-else' } }],
    ['no session id', { drop: ['sid'] }],
    ['no subject', { drop: ['sub'] }],
    [
      "another user's id with this session",
      { claims: { sub: '00000000-0000-4000-8000-000000000000' } },
    ],
  ])('refuses a token with %s', async (_what, opts) => {
    await expectRefused(await craftToken(u.token, opts));
  });

  it("refuses a token naming another user's session", async () => {
    const other = await seedUser(t);
    await expectRefused(await craftToken(u.token, { claims: { sid: decodeJwt(other.token).sid } }));
  });
});

describe('SESS-5: a token is refused after logout', () => {
  it('answers 401 on the next request with that token', async () => {
    const token = await login(t, u.email, TEST_PASSWORD);
    expect((await profileWith(token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    await expectRefused(token);
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) }),
      401,
      'Authentication required',
    );
  });
});

describe('SESS-7: every sign-in makes a new token and session', () => {
  it('gives two logins different tokens with different session ids', async () => {
    const a = await login(t, u.email, TEST_PASSWORD);
    const b = await login(t, u.email, TEST_PASSWORD);
    expect(a).not.toBe(b);
    expect(decodeJwt(a).sid).not.toBe(decodeJwt(b).sid);
  });
});

describe('SESS-8: a token is only read from the Authorization header', () => {
  it.each(['token', 'access_token', 'auth_token'])('refuses ?%s= in the URL', async (name) => {
    expectError(
      await t.app.inject({ url: `/api/auth/profile?${name}=${u.token}` }),
      401,
      'Authentication required',
    );
  });

  it('refuses the token in a cookie', async () => {
    expectError(
      await t.app.inject({
        url: '/api/auth/profile',
        headers: { cookie: `auth_token=${u.token}` },
      }),
      401,
      'Authentication required',
    );
  });
});
