import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import {
  assign,
  createDog,
  deviceAuth,
  deviceRow,
  deviceRows,
  freshDeviceId,
  freshMac,
  ownedCollar,
  prePopulate,
} from '../helpers/devices.js';

let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin', name: 'Ada Admin' });
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });

describe('the registration flow', () => {
  it('an admin pre-populates a collar, a customer looks it up and assigns it; a second customer is refused', async () => {
    const [collar] = await prePopulate(t, admin);
    const owner = await seedUser(t, { name: 'Olive' });
    const pet = await createDog(t, owner, 'Rex');

    const lookup = await get(owner.token, `/api/devices/by-device-id/${collar!.device_id}`);
    expect(lookup.json().status).toBe('unassigned');
    const res = await assign(t, owner, collar!.device_id, {
      dog_id: pet.id,
      device_name: 'Rex collar',
      device_type: 'collar',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().device).toMatchObject({
      registration_status: 'assigned',
      dog_name: 'Rex',
      owner_name: 'Olive',
    });
    expect(
      (await get(owner.token, '/api/devices')).json().devices.map((d: { id: string }) => d.id),
    ).toEqual([collar!.id]);

    const second = await seedUser(t);
    const theirPet = await createDog(t, second);
    const again = await get(second.token, `/api/devices/by-device-id/${collar!.device_id}`);
    expect(again.json()).toEqual({
      status: 'assigned',
      message: MESSAGES.deviceAlreadyAssigned(collar!.device_id),
    });
    expectError(
      await assign(t, second, collar!.device_id, { dog_id: theirPet.id, device_name: 'Mine' }),
      409,
      MESSAGES.deviceAlreadyAssigned(collar!.device_id),
    );
  });

  it('an unknown Device ID falls back to an unregistered device, which a later pre-populate adopts', async () => {
    const owner = await seedUser(t, { name: 'Fallback Fran' });
    const pet = await createDog(t, owner, 'Rex');
    const deviceId = freshDeviceId();

    expectError(await get(owner.token, `/api/devices/by-device-id/${deviceId}`), 404);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(owner.token),
      payload: {
        device_id: deviceId,
        dog_id: pet.id,
        device_name: 'Rex collar',
        device_type: 'collar',
        device_address: null,
        firmware_version: null,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const device = created.json().device;
    expect(device).toMatchObject({
      registration_status: 'unregistered',
      user_id: owner.id,
      dog_id: pet.id,
    });

    // Nobody else can take it meanwhile.
    const other = await seedUser(t);
    const otherPet = await createDog(t, other);
    expect((await get(other.token, `/api/devices/by-device-id/${deviceId}`)).json().status).toBe(
      'assigned',
    );
    expectError(
      await assign(t, other, deviceId, { dog_id: otherPet.id, device_name: 'x' }),
      409,
      MESSAGES.deviceAlreadyAssigned(deviceId),
    );

    // The admin pre-populates that Device ID: it is adopted, and the answer says whose it is.
    const mac = freshMac();
    const [adopted] = await prePopulate(t, admin, [
      { device_id: deviceId.toLowerCase(), device_address: mac },
    ]);
    expect(adopted).toMatchObject({
      id: device.id,
      device_id: deviceId,
      adopted: true,
      owner_name: 'Fallback Fran',
    });
    expect(adopted!.device_key).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const after = (await get(owner.token, `/api/devices/${device.id}`)).json().device;
    expect(after).toMatchObject({
      device_id: deviceId,
      device_address: mac,
      registration_status: 'assigned',
      user_id: owner.id,
      dog_id: pet.id,
      device_name: 'Rex collar',
    });
    expect((await deviceRow(t, device.id))!.device_key_hash).toMatch(/^[0-9a-f]{64}$/);

    // Its key now works for the collar itself.
    const self = await t.app.inject({
      method: 'POST',
      url: '/api/devices/self-register',
      headers: deviceAuth(adopted!.device_key),
      payload: { firmware_version: '2.1.0', device_address: mac },
    });
    expect(self.statusCode, self.body).toBe(200);
  });

  it('a Device ID held by a keyed device is never adopted', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRows(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/devices/pre-populate',
      headers: bearer(admin.token),
      payload: { devices: [{ device_id: c.device_id, device_address: freshMac() }] },
    });
    expectError(res, 409, `Device ID ${c.device_id} already exists`);
    expect(await deviceRows(t)).toEqual(before);
  });
});

describe('POST /api/device-registration/auto-assign', () => {
  const autoAssign = (token: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/device-registration/auto-assign',
      headers: bearer(token),
      payload: payload as object,
    });

  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/device-registration/auto-assign',
        payload: {},
      }),
      401,
    );
  });

  it('reserves a free collar for the pet at once and queues the set-up mail in the same step', async () => {
    const owner = await seedUser(t, { name: 'Ann <b>Owner</b>' });
    const pet = await createDog(t, owner, 'Rex & "Co"');
    await prePopulate(t, admin);
    const res = await autoAssign(owner.token, { dog_id: pet.id, device_name: 'Rex collar' });
    expect(res.statusCode, res.body).toBe(200);
    const device = res.json().device;
    expect(device).toMatchObject({
      user_id: owner.id,
      dog_id: pet.id,
      device_name: 'Rex collar',
      registration_status: 'assigned',
      device_type: 'collar',
    });

    const mail = await t.app.container.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', owner.email)
      .execute();
    expect(mail).toHaveLength(1);
    const m = mail[0]!;
    expect(m.subject).toBe(`Set up your PawGuard collar ${device.device_id}`);
    expect(m.text_body).toContain(device.device_id);
    expect(m.text_body).toContain(`PawGuard-${device.device_id}`);
    expect(m.text_body).toContain('http://192.168.4.1');
    // User text is escaped in HTML.
    expect(m.html_body).toContain('Ann &lt;b&gt;Owner&lt;/b&gt;');
    expect(m.html_body).toContain('Rex &amp; &quot;Co&quot;');
    expect(m.html_body).not.toContain('<b>Owner</b>');
  });

  it("answers 409 when no collar is free, and 404 for another user's pet", async () => {
    const solo = await createTestApp();
    try {
      const a = await seedUser(solo, { role: 'admin' });
      const owner = await seedUser(solo);
      const other = await seedUser(solo);
      const pet = await createDog(solo, owner);
      const theirs = await createDog(solo, other);
      const call = (token: string, payload: unknown) =>
        solo.app.inject({
          method: 'POST',
          url: '/api/device-registration/auto-assign',
          headers: bearer(token),
          payload: payload as object,
        });
      expectError(
        await call(owner.token, { dog_id: pet.id, device_name: 'x' }),
        409,
        MESSAGES.noCollarsAvailable,
      );
      // A vest is not a collar.
      await prePopulate(solo, a, [{ device_type: 'vest' }]);
      expectError(
        await call(owner.token, { dog_id: pet.id, device_name: 'x' }),
        409,
        MESSAGES.noCollarsAvailable,
      );
      await prePopulate(solo, a);
      const before = await deviceRows(solo);
      expectError(
        await call(owner.token, { dog_id: theirs.id, device_name: 'x' }),
        404,
        'Pet not found',
      );
      expect(await deviceRows(solo)).toEqual(before);
      expect(await solo.app.container.db.selectFrom('outbox').selectAll().execute()).toHaveLength(
        0,
      );
    } finally {
      await solo.close();
    }
  });

  it('refuses an owner claiming a device that is not a collar, and leaves it as provisioned', async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner);
    const [vest] = await prePopulate(t, admin, [{ device_type: 'vest' }]);
    const before = await deviceRow(t, vest!.id);
    const res = await assign(t, owner, vest!.device_id, { dog_id: pet.id, device_name: 'Vest' });
    expectError(
      res,
      400,
      `Device ${vest!.device_id} is a vest; customers may register collars only.`,
    );
    expect(await deviceRow(t, vest!.id)).toEqual(before);
  });

  it('never reserves a collar an admin put in maintenance', async () => {
    const solo = await createTestApp();
    try {
      const a = await seedUser(solo, { role: 'admin' });
      const owner = await seedUser(solo);
      const pet = await createDog(solo, owner);
      const [collar] = await prePopulate(solo, a);
      const put = await solo.app.inject({
        method: 'PUT',
        url: `/api/devices/${collar!.id}`,
        headers: bearer(a.token),
        payload: { device_name: `Device ${collar!.device_id}`, status: 'maintenance' },
      });
      expect(put.statusCode, put.body).toBe(200);
      const before = await deviceRows(solo);
      expectError(
        await solo.app.inject({
          method: 'POST',
          url: '/api/device-registration/auto-assign',
          headers: bearer(owner.token),
          payload: { dog_id: pet.id, device_name: 'x' },
        }),
        409,
        MESSAGES.noCollarsAvailable,
      );
      expect(await deviceRows(solo)).toEqual(before);
      expect(await solo.app.container.db.selectFrom('outbox').selectAll().execute()).toHaveLength(
        0,
      );
    } finally {
      await solo.close();
    }
  });

  it('gives two simultaneous requests two different collars, or one a 409', async () => {
    const solo = await createTestApp();
    try {
      const a = await seedUser(solo, { role: 'admin' });
      const u1 = await seedUser(solo);
      const u2 = await seedUser(solo);
      const p1 = await createDog(solo, u1);
      const p2 = await createDog(solo, u2);
      await prePopulate(solo, a);
      const call = (u: SeededUser, dogId: string) =>
        solo.app.inject({
          method: 'POST',
          url: '/api/device-registration/auto-assign',
          headers: bearer(u.token),
          payload: { dog_id: dogId, device_name: 'x' },
        });
      const results = await Promise.all([call(u1, p1.id), call(u2, p2.id)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const rows = await deviceRows(solo);
      expect(rows).toHaveLength(1);
      expect(await solo.app.container.db.selectFrom('outbox').selectAll().execute()).toHaveLength(
        1,
      );
    } finally {
      await solo.close();
    }
  });

  it.each([
    ['no pet', { device_name: 'x' }],
    ['no name', { dog_id: randomUUID() }],
    ['a blank name', { dog_id: randomUUID(), device_name: ' ' }],
    ['a type', { dog_id: randomUUID(), device_name: 'x', device_type: 'collar' }],
  ])('answers 400 for %s', async (_what, body) => {
    const u = await seedUser(t);
    expectError(await autoAssign(u.token, body), 400);
  });
});

describe('auto-assign cannot empty the fleet', () => {
  let solo: TestApp;
  let a: SeededUser;
  beforeAll(async () => {
    solo = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
    a = await seedUser(solo, { role: 'admin' });
  });
  afterAll(() => solo.close());
  const call = (u: SeededUser, dogId: string) =>
    solo.app.inject({
      method: 'POST',
      url: '/api/device-registration/auto-assign',
      headers: bearer(u.token),
      payload: { dog_id: dogId, device_name: 'Mine' },
    });
  const outboxFor = (email: string) =>
    solo.app.container.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', email)
      .execute();

  it('gives a pet one waiting collar: a second request for it says why and reserves nothing', async () => {
    const owner = await seedUser(solo);
    const pet = await createDog(solo, owner, 'Rex');
    await prePopulate(solo, a, [{}, {}]);
    const first = await call(owner, pet.id);
    expect(first.statusCode, first.body).toBe(200);
    const before = await deviceRows(solo);
    expectError(
      await call(owner, pet.id),
      409,
      `Rex already has a collar waiting for its first reading (${first.json().device.device_id}). Set that one up first, or register a collar by its Device ID.`,
    );
    expect(await deviceRows(solo)).toEqual(before);
    expect(await outboxFor(owner.email)).toHaveLength(1);
  });

  /** The owner's session posts a first reading for a reserved collar, so it waits no more. */
  const firstReading = (u: SeededUser, deviceId: string) =>
    solo.app.inject({
      method: 'POST',
      url: `/api/devices/${deviceId}/vitals`,
      headers: bearer(u.token),
      payload: { temperature: 24, humidity: 40 },
    });

  it('lets one person hold at most 3 collars waiting for data, however they are moved or their pets deleted', async () => {
    const owner = await seedUser(solo);
    const pets = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createDog(solo, owner, `Dog ${i}`)),
    );
    await prePopulate(
      solo,
      a,
      Array.from({ length: 6 }, () => ({})),
    );
    // Asked all at once, three are served: the rest are refused with the reason.
    const burst = await Promise.all(pets.slice(0, 5).map((p) => call(owner, p.id)));
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const refused = burst.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(2);
    expectError(
      refused[0]!,
      409,
      'You already have 3 collars from PawGuard waiting for their first reading. Set them up first, or register a collar by its Device ID.',
    );
    // Taking a waiting collar off its pet frees no room ...
    const served = burst.filter((r) => r.statusCode === 200).map((r) => r.json().device);
    const moved = await solo.app.inject({
      method: 'PUT',
      url: `/api/devices/${served[0].id}`,
      headers: bearer(owner.token),
      payload: { device_name: 'Spare', dog_id: null },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().device.dog_id).toBeNull();
    expect((await call(owner, pets[5]!.id)).statusCode).toBe(409);
    // ... nor does deleting the pet a collar waits on.
    const deleted = await solo.app.inject({
      method: 'DELETE',
      url: `/api/dogs/${served[1].dog_id}`,
      headers: bearer(owner.token),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await call(owner, pets[5]!.id)).statusCode).toBe(409);
    // A collar that has sent its first reading waits no more: room for one.
    expect((await firstReading(owner, served[2].device_id)).statusCode).toBe(201);
    expect((await call(owner, pets[5]!.id)).statusCode).toBe(200);
    expect(await outboxFor(owner.email)).toHaveLength(4);
  });

  it('lets one account reserve at most 5 collars an hour, however fast it asks', async () => {
    const greedy = await seedUser(solo);
    const pets = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createDog(solo, greedy, `Pet ${i}`)),
    );
    await prePopulate(
      solo,
      a,
      Array.from({ length: 8 }, () => ({})),
    );
    // Each reserved collar is set up at once, so only the hourly budget holds it back.
    for (const pet of pets.slice(0, 5)) {
      const res = await call(greedy, pet.id);
      expect(res.statusCode, res.body).toBe(200);
      expect((await firstReading(greedy, res.json().device.device_id)).statusCode).toBe(201);
    }
    const sixth = await Promise.all(pets.slice(5).map((p) => call(greedy, p.id)));
    for (const res of sixth) {
      expectError(
        res,
        429,
        'You have reserved several collars in the last hour. Please try again later.',
      );
      expect(res.headers['retry-after']).toBeDefined();
    }
    expect(await outboxFor(greedy.email)).toHaveLength(5);
    // Others still find collars.
    const other = await seedUser(solo);
    expect((await call(other, (await createDog(solo, other)).id)).statusCode).toBe(200);
    // The hour over, the account may reserve again.
    solo.clock.advance(60 * 60 * 1000 + 1000);
    expect((await call(greedy, pets[7]!.id)).statusCode).toBe(200);
  });

  // On PostgreSQL the requests truly overlap (SQLite runs one write transaction at a time), so
  // this proves the claim loop there: losing a candidate to another request never ends in
  // "no collars" while free ones remain.
  it('serves every one of many simultaneous requests while free collars remain', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => seedUser(solo)));
    const pets = await Promise.all(users.map((u) => createDog(solo, u)));
    const free = await solo.app.container.db
      .selectFrom('devices')
      .select('id')
      .where('registration_status', '=', 'unassigned')
      .execute();
    const need = 8 - free.length;
    if (need > 0)
      await prePopulate(
        solo,
        a,
        Array.from({ length: need }, () => ({})),
      );
    const results = await Promise.all(users.map((u, i) => call(u, pets[i]!.id)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.json().device.id)).size).toBe(8);
  });
});

describe('POST /api/devices/self-register', () => {
  const selfRegister = (headers: Record<string, string>, payload: unknown, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `/api/devices/self-register${query}`,
      headers,
      payload: payload as object,
    });

  it('lets a collar with its key report its firmware and MAC', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const mac = freshMac();
    const res = await selfRegister(deviceAuth(c.device_key), {
      firmware_version: '1.4.2',
      device_address: mac.toLowerCase(),
    });
    expect(res.statusCode, res.body).toBe(200);
    // The collar learns about itself, never its UUID, owner or pet.
    expect(res.json()).toEqual({
      device: {
        device_id: c.device_id,
        device_address: mac,
        firmware_version: '1.4.2',
        registration_status: 'assigned',
        status: 'inactive',
      },
    });
    const device = (await get(owner.token, `/api/devices/${c.id}`)).json().device;
    expect(device).toMatchObject({
      firmware_version: '1.4.2',
      device_address: mac,
      last_seen: expect.any(String),
    });
  });

  it('answers 401 for a wrong key, a bearer token, or a key in the query string', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRow(t, c.id);
    const body = { firmware_version: '9.9.9', device_address: freshMac() };
    expectError(await selfRegister({}, body), 401);
    expectError(await selfRegister(deviceAuth('x'.repeat(43)), body), 401);
    expectError(await selfRegister(deviceAuth(c.device_key.slice(0, -1)), body), 401);
    expectError(await selfRegister(bearer(owner.token), body), 401);
    expectError(await selfRegister({ authorization: c.device_key }, body), 401);
    expectError(await selfRegister({}, body, `?key=${c.device_key}`), 401);
    expectError(await selfRegister({}, body, `?device_key=${c.device_key}`), 401);
    expect(await deviceRow(t, c.id)).toEqual(before);
    expect(t.logs().some((l) => l.includes(c.device_key))).toBe(false);
  });

  it('answers 409 for a MAC another device uses, and 400 for a bad body', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const [other] = await prePopulate(t, admin);
    const otherMac = (await deviceRow(t, other!.id))!.device_address!;
    expectError(
      await selfRegister(deviceAuth(c.device_key), {
        firmware_version: '1',
        device_address: otherMac,
      }),
      409,
    );
    expectError(await selfRegister(deviceAuth(c.device_key), { firmware_version: '1' }), 400);
    expectError(
      await selfRegister(deviceAuth(c.device_key), {
        firmware_version: '1',
        device_address: freshMac(),
        device_id: 'PET-0000',
      }),
      400,
    );
  });
});
