import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { createDog, deviceAuth, freshDeviceId, freshMac, prePopulate } from '../helpers/devices.js';

/**
 * DEV-1: one credential per device, ≥ 128 random bits, stored only as a hash.
 * DEV-2: the credential is read from the Authorization header only, never from the URL.
 * And the key is shown once, in the pre-populate answer: no other answer carries it.
 */

let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Every text cell of every table: the key must be in none of them. */
async function allStoredText(): Promise<string> {
  const db = t.app.container.db;
  const out: string[] = [];
  for (const table of [
    'users',
    'sessions',
    'dogs',
    'devices',
    'outbox',
    'notification_preferences',
  ] as const) {
    const rows = await db.selectFrom(table).selectAll().execute();
    out.push(JSON.stringify(rows));
  }
  return out.join('\n');
}

describe('DEV-1: device keys', () => {
  it('two pre-populated devices get different keys of at least 128 random bits', async () => {
    const [a, b] = await prePopulate(t, admin, [{}, {}]);
    expect(a!.device_key).not.toBe(b!.device_key);
    for (const key of [a!.device_key, b!.device_key]) {
      expect(Buffer.from(key, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it('are unique across many devices', async () => {
    const many = await prePopulate(
      t,
      admin,
      Array.from({ length: 100 }, () => ({})),
    );
    expect(new Set(many.map((d) => d.device_key)).size).toBe(100);
  });

  it('the database holds only their hashes', async () => {
    const [d] = await prePopulate(t, admin);
    const row = await t.app.container.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', d!.id)
      .executeTakeFirstOrThrow();
    expect(row.device_key_hash).toBe(sha256(d!.device_key));
    expect(await allStoredText()).not.toContain(d!.device_key);
    // No column of the table is named for a plain key.
    const cols = Object.keys(row);
    expect(cols).toContain('device_key_hash');
    expect(cols).not.toContain('device_key');
  });

  it('each key opens only its own device', async () => {
    const [a, b] = await prePopulate(t, admin, [{}, {}]);
    const macA = freshMac();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices/self-register',
      headers: deviceAuth(a!.device_key),
      payload: { firmware_version: '1.0', device_address: macA },
    });
    expect(res.json().device.device_id).toBe(a!.device_id);
    const rowB = await t.app.container.db
      .selectFrom('devices')
      .selectAll()
      .where('id', '=', b!.id)
      .executeTakeFirstOrThrow();
    expect(rowB.firmware_version).toBeNull();
  });

  it('a released collar keeps its key', async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner);
    const [d] = await prePopulate(t, admin);
    await t.app.inject({
      method: 'POST',
      url: `/api/devices/assign/${d!.device_id}`,
      headers: bearer(owner.token),
      payload: { dog_id: pet.id, device_name: 'x' },
    });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${d!.id}`,
      headers: bearer(owner.token),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/devices/self-register',
      headers: deviceAuth(d!.device_key),
      payload: { firmware_version: '1.1', device_address: freshMac() },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().device.registration_status).toBe('unassigned');
  });
});

describe('DEV-2: the key travels in the Authorization header only', () => {
  it('a key in the query string or the path answers 401', async () => {
    const [d] = await prePopulate(t, admin);
    const body = { firmware_version: '1.0', device_address: freshMac() };
    for (const url of [
      `/api/devices/self-register?key=${d!.device_key}`,
      `/api/devices/self-register?device_key=${d!.device_key}`,
      `/api/devices/self-register?authorization=Device%20${d!.device_key}`,
    ]) {
      expectError(await t.app.inject({ method: 'POST', url, payload: body }), 401);
    }
    // Keys in query strings are redacted from the request log.
    expect(t.logs().some((l) => l.includes(d!.device_key))).toBe(false);
    // No route takes a key in its path.
    const inPath = await t.app.inject({
      method: 'POST',
      url: `/api/devices/self-register/${d!.device_key}`,
      payload: body,
    });
    expect(inPath.statusCode).toBe(404);
  });

  it('a malformed Device header answers 401', async () => {
    const [d] = await prePopulate(t, admin);
    const body = { firmware_version: '1.0', device_address: freshMac() };
    for (const authorization of [
      `device ${d!.device_key}`,
      `Device  ${d!.device_key}`,
      `Bearer ${d!.device_key}`,
      `Device ${d!.device_key}x`,
      'Device ',
    ]) {
      expectError(
        await t.app.inject({
          method: 'POST',
          url: '/api/devices/self-register',
          headers: { authorization },
          payload: body,
        }),
        401,
      );
    }
  });
});

describe('the key is shown once', () => {
  it('appears in the pre-populate answer and in no other answer, to anyone', async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner, 'Rex');
    const [d] = await prePopulate(t, admin);
    const key = d!.device_key;
    const mac = (
      await t.app.container.db
        .selectFrom('devices')
        .select('device_address')
        .where('id', '=', d!.id)
        .executeTakeFirstOrThrow()
    ).device_address!;
    const bodies: string[] = [];
    const call = async (
      token: string | null,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
    ) => {
      const res = await t.app.inject({
        method,
        url,
        headers: token ? bearer(token) : {},
        ...(payload ? { payload } : {}),
      });
      bodies.push(`${method} ${url} -> ${res.statusCode} ${res.body}`);
      return res;
    };
    for (const token of [admin.token, owner.token]) {
      await call(token, 'GET', '/api/devices/all');
      await call(token, 'GET', '/api/admin/devices/unassigned');
      await call(token, 'GET', `/api/devices/${d!.id}`);
      await call(token, 'GET', `/api/devices/by-mac/${mac}`);
      await call(token, 'GET', `/api/devices/by-device-id/${d!.device_id}`);
    }
    await call(owner.token, 'POST', `/api/devices/assign/${d!.device_id}`, {
      dog_id: pet.id,
      device_name: 'Rex',
    });
    for (const token of [admin.token, owner.token]) {
      await call(token, 'GET', '/api/devices');
      await call(token, 'GET', '/api/devices/all');
      await call(token, 'GET', `/api/devices/${d!.id}`);
      await call(token, 'GET', `/api/devices/${d!.id}/qr-code`);
      await call(token, 'PUT', `/api/devices/${d!.id}`, { device_name: 'Rex', dog_id: pet.id });
    }
    await call(admin.token, 'POST', '/api/devices/register', {
      device_id: d!.device_id,
      user_id: owner.id,
    });
    const selfReg = await t.app.inject({
      method: 'POST',
      url: '/api/devices/self-register',
      headers: deviceAuth(key),
      payload: { firmware_version: '3.0', device_address: mac },
    });
    expect(selfReg.statusCode).toBe(200);
    bodies.push(selfReg.body);
    // The fallback and auto-assign answers too.
    await prePopulate(t, admin);
    await call(owner.token, 'POST', '/api/device-registration/auto-assign', {
      dog_id: pet.id,
      device_name: 'Spare',
    });
    await call(owner.token, 'POST', '/api/devices', {
      device_id: freshDeviceId(),
      dog_id: pet.id,
      device_name: 'Fallback',
    });

    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) {
      expect(body).not.toContain(key);
      expect(body).not.toContain(sha256(key));
      expect(body).not.toMatch(/"device_key(_hash)?"/);
    }
    expect(t.logs().some((l) => l.includes(key))).toBe(false);
    // The outbox mail names the Device ID only.
    const mail = await t.app.container.db
      .selectFrom('outbox')
      .select(sql<string>`text_body || coalesce(html_body, '')`.as('b'))
      .execute();
    for (const m of mail) expect(m.b).not.toContain(key);
  });
});

describe('DEV-4: an admin rotates a device key', () => {
  const rotate = (token: string, id: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/devices/${id}/rotate-key`,
      headers: bearer(token),
    });
  const selfRegister = (key: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/devices/self-register',
      headers: deviceAuth(key),
      payload: { firmware_version: '2.0.0', device_address: freshMac() },
    });

  it('refuses the old key at once and accepts the new one, which only this answer shows', async () => {
    const [d] = await prePopulate(t, admin);
    expect((await selfRegister(d!.device_key)).statusCode).toBe(200);
    const res = await rotate(admin.token, d!.id);
    expect(res.statusCode, res.body).toBe(200);
    const { device } = res.json();
    expect(device).toMatchObject({ id: d!.id, device_id: d!.device_id });
    expect(device.device_key).not.toBe(d!.device_key);
    expect(Buffer.from(device.device_key, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(device.qr_code).toMatch(/^data:image\/png;base64,/);
    expectError(await selfRegister(d!.device_key), 401);
    expect((await selfRegister(device.device_key)).statusCode).toBe(200);
    expect(await allStoredText()).not.toContain(device.device_key);
    expect(
      t.logs().some((l) => l.includes('"event":"admin.device_rotate_key"') && l.includes(d!.id)),
    ).toBe(true);
    expect(t.logs().some((l) => l.includes(device.device_key))).toBe(false);
  });

  it('tells of the rotated key after the change has committed', async () => {
    const [d] = await prePopulate(t, admin);
    const { deviceChanges: changes, repos } = t.app.container;
    // When the news is told, the new key is written (auto-committed: no transaction here).
    const update = repos.devices.update.bind(repos.devices);
    let keyWritten = false;
    const writes = vi.spyOn(repos.devices, 'update').mockImplementation(async (...args) => {
      const done = await update(...args);
      keyWritten = true;
      return done;
    });
    const told = changes.credentialsChanged.bind(changes);
    const seen: unknown[] = [];
    const news = vi.spyOn(changes, 'credentialsChanged').mockImplementation((c) => {
      const written = keyWritten;
      told(c);
      for (const change of Array.isArray(c) ? c : [c])
        // And the old key no longer opens the device.
        void selfRegister(d!.device_key).then((res) =>
          seen.push({ ...change, written, oldKeyWorks: res.statusCode === 200 }),
        );
    });
    expect((await rotate(admin.token, d!.id)).statusCode).toBe(200);
    news.mockRestore();
    writes.mockRestore();
    await expect
      .poll(() => seen)
      .toEqual([
        {
          id: d!.id,
          device_id: d!.device_id,
          reason: 'rotated',
          owner_id: null,
          written: true,
          oldKeyWorks: false,
        },
      ]);
  });

  it('of two rotations at once, one answers the key that works and the other 409', async () => {
    const [d] = await prePopulate(t, admin);
    // "At once": both have read the key before either writes. Held here until both reach the
    // write, so a busy machine cannot finish one before the other starts.
    const devices = t.app.container.repos.devices;
    const update = devices.update.bind(devices);
    let arrived = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    const spy = vi.spyOn(devices, 'update').mockImplementation(async (...args) => {
      if (++arrived === 2) release();
      await bothRead;
      return update(...args);
    });
    const answers = await Promise.all([
      rotate(admin.token, d!.id),
      rotate(admin.token, d!.id),
    ]).finally(() => spy.mockRestore());
    expect(arrived).toBe(2);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const won = answers.find((r) => r.statusCode === 200)!;
    const lost = answers.find((r) => r.statusCode === 409)!;
    expectError(
      lost,
      409,
      /Another admin just issued a new key .*Rotating again would replace theirs/,
    );
    expect((await selfRegister(won.json().device.device_key)).statusCode).toBe(200);
    expectError(await selfRegister(d!.device_key), 401);
  });

  it('answers 409 for a device that has no key yet, 404 for an unknown id, 403 to a user', async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(owner.token),
      payload: { device_id: freshDeviceId(), dog_id: pet.id, device_name: 'Mine' },
    });
    expectError(
      await rotate(admin.token, created.json().device.id),
      409,
      /has no key yet: pre-populate its Device ID/,
    );
    expectError(await rotate(admin.token, '00000000-0000-4000-8000-000000000000'), 404);
    const [d] = await prePopulate(t, admin);
    expectError(await rotate(owner.token, d!.id), 403);
    expect((await selfRegister(d!.device_key)).statusCode).toBe(200);
  });
});
