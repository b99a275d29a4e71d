import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { TEST_PASSWORD_HASH, type TestApp } from './app.js';

/** The failure shape every client depends on: this status and exactly `{ error: message }`. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  message?: string | RegExp,
): void {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  if (typeof message === 'string') expect(body.error).toBe(message);
  else if (message) expect(body.error).toMatch(message);
}

/** Things no answer may ever contain: stacks, SQL, file paths, module names. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat \S+ \(|\bat file:|\bat async\b/],
  ['a source path', /\.(ts|js|mjs|cjs):\d+/],
  ['node_modules', /node_modules/],
  [
    'SQL',
    /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b|SQLITE_|sqlite3|syntax error at or near/i,
  ],
  ['a file path', /(^|[\s"'(])\/(home|usr|tmp|var|opt|srv|app|root)\//],
  ['a password hash', /\$argon2|password_hash/],
];

export function leaksIn(body: string): string[] {
  return LEAKS.filter(([, re]) => re.test(body)).map(([what]) => what);
}

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-0123456789abcdef';

/** Builds access tokens with chosen claims, signed with the test key (or another). */
export async function craftToken(
  fromToken: string,
  opts: {
    claims?: Record<string, unknown>;
    drop?: string[];
    exp?: number | null;
    alg?: 'HS256' | 'HS384' | 'HS512';
    secret?: string;
  } = {},
): Promise<string> {
  const original = decodeJwt(fromToken);
  const payload: Record<string, unknown> = { ...original, ...opts.claims };
  if (opts.exp === null) delete payload.exp;
  else if (opts.exp !== undefined) payload.exp = opts.exp;
  for (const k of opts.drop ?? []) delete payload[k];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: opts.alg ?? 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(opts.secret ?? TEST_JWT_SECRET));
}

/** Inserts a pet straight into the database (no request), owned by `userId`. */
export async function seedDog(
  t: TestApp,
  userId: string,
  fields: Partial<{ name: string; breed: string }> = {},
) {
  const now = new Date().toISOString();
  const dog = {
    id: randomUUID(),
    user_id: userId,
    name: fields.name ?? 'Biscuit',
    breed: fields.breed ?? 'Beagle',
    age: 4,
    weight: 22.5,
    medical_info: null,
    emergency_contact: null,
    created_at: now,
    updated_at: now,
  };
  await t.app.container.repos.dogs.insert(dog);
  return dog;
}

/** Every stored row of the tables a request could change, to prove that nothing did. */
export async function snapshot(t: TestApp) {
  const db = t.app.container.db;
  const [users, dogs, prefs, sessions] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('dogs').selectAll().orderBy('id').execute(),
    db.selectFrom('notification_preferences').selectAll().orderBy('user_id').execute(),
    db.selectFrom('sessions').select(['id', 'revoked_at']).orderBy('id').execute(),
  ]);
  return { users, dogs, prefs, sessions };
}

/** Inserts a user without signing in (no hashing, no session): a target for admin calls. */
export async function insertUser(
  t: TestApp,
  overrides: Partial<{ role: 'admin' | 'user'; email: string; name: string }> = {},
) {
  const id = randomUUID();
  const now = new Date().toISOString();
  const row = {
    id,
    email: overrides.email ?? `target-${id.slice(0, 8)}@example.com`,
    name: overrides.name ?? `Target ${id.slice(0, 4)}`,
    password_hash: TEST_PASSWORD_HASH,
    role: overrides.role ?? ('user' as const),
    email_verified_at: null,
    created_at: now,
    updated_at: now,
  };
  await t.app.container.repos.users.insert(row);
  return row;
}
