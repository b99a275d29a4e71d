import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import {
  assign,
  createDog,
  deviceRow,
  deviceRows,
  freshDeviceId,
  freshMac,
  ownedCollar,
  prePopulate,
} from '../helpers/devices.js';
import { scanQrDataUrl } from '../helpers/qr-image.js';
import { postAsCollar } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin', name: 'Ada Admin' });
});
afterAll(() => t.close());

const get = (token: string, url: string) => t.app.inject({ url, headers: bearer(token) });

describe('GET /api/devices', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: '/api/devices' }), 401);
  });

  it('lists only my devices, with pet and owner names and empty latest vitals', async () => {
    const me = await seedUser(t, { name: 'Mia Owner' });
    const other = await seedUser(t);
    const mine = await ownedCollar(t, admin, me, 'Rex');
    await ownedCollar(t, admin, other, 'Fido');
    const res = await get(me.token, '/api/devices');
    expect(res.statusCode).toBe(200);
    const devices = res.json().devices;
    expect(devices).toHaveLength(1);
    expect(devices[0]).toEqual({
      id: mine.id,
      device_id: mine.device_id,
      device_address: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/),
      device_name: "Rex's collar",
      device_type: 'collar',
      status: 'inactive',
      registration_status: 'assigned',
      user_id: me.id,
      dog_id: mine.pet.id,
      dog_name: 'Rex',
      owner_name: 'Mia Owner',
      firmware_version: null,
      battery_level: null,
      last_seen: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      temperature_celsius: null,
      humidity_percent: null,
      heart_rate: null,
      activity_level: null,
      vitals_status: null,
      threshold_status: null,
      vitals_recorded_at: null,
      risk_band: null,
      risk_score: null,
      risk_reasons: [],
      collar_off: false,
    });
  });
});

describe('GET /api/devices/{id}', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: `/api/devices/${randomUUID()}` }), 401);
  });

  it("answers the owner and an admin, and 404 for another user's device", async () => {
    const owner = await seedUser(t);
    const stranger = await seedUser(t);
    const { id } = await ownedCollar(t, admin, owner);
    expect((await get(owner.token, `/api/devices/${id}`)).json().device.id).toBe(id);
    expect((await get(admin.token, `/api/devices/${id}`)).json().device.id).toBe(id);
    expectError(await get(stranger.token, `/api/devices/${id}`), 404, 'Device not found');
    expectError(await get(stranger.token, `/api/devices/${randomUUID()}`), 404, 'Device not found');
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const u = await seedUser(t);
    expectError(await get(u.token, '/api/devices/PET-1234'), 400);
  });
});

describe('PUT /api/devices/{id}', () => {
  const put = (token: string, id: string, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/devices/${id}`,
      headers: bearer(token),
      payload: payload as object,
    });

  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({
        method: 'PUT',
        url: `/api/devices/${randomUUID()}`,
        payload: { device_name: 'x' },
      }),
      401,
    );
  });

  it('renames a collar and moves it to another of my pets', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Rex');
    const luna = await createDog(t, owner, 'Luna');
    const res = await put(owner.token, c.id, {
      device_name: '  Luna collar ',
      device_type: 'collar',
      dog_id: luna.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({
      device_name: 'Luna collar',
      dog_id: luna.id,
      dog_name: 'Luna',
      device_id: c.device_id,
    });
  });

  it('renames with the spec’s body (name and type) and leaves the collar on its pet', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = (await get(owner.token, `/api/devices/${c.id}`)).json().device;
    expect(before.dog_id).toEqual(expect.any(String));
    const res = await put(owner.token, c.id, {
      device_name: "Biscuit's collar",
      device_type: 'collar',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().device).toMatchObject({
      device_name: "Biscuit's collar",
      dog_id: before.dog_id,
      dog_name: before.dog_name,
    });
    // An empty body changes nothing.
    const same = await put(owner.token, c.id, {});
    expect(same.json().device).toMatchObject({
      device_name: "Biscuit's collar",
      dog_id: before.dog_id,
    });
  });

  it('takes the collar off its pet with dog_id: null, and it stays mine', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const res = await put(owner.token, c.id, { device_name: 'Spare', dog_id: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().device).toMatchObject({
      dog_id: null,
      dog_name: null,
      user_id: owner.id,
      registration_status: 'assigned',
    });
  });

  it("answers 404 for another user's pet and changes nothing", async () => {
    const owner = await seedUser(t);
    const other = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const theirs = await createDog(t, other, 'Theirs');
    const before = await deviceRows(t);
    expectError(
      await put(owner.token, c.id, { device_name: 'x', dog_id: theirs.id }),
      404,
      'Pet not found',
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it("answers 404 for another user's device and changes nothing", async () => {
    const owner = await seedUser(t);
    const stranger = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRows(t);
    expectError(
      await put(stranger.token, c.id, { device_name: 'Mine now' }),
      404,
      'Device not found',
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it('refuses a customer a change to any type but collar (400), and a status change (403)', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRow(t, c.id);
    expectError(
      await put(owner.token, c.id, { device_name: 'x', device_type: 'vest' }),
      400,
      /collar/,
    );
    expectError(
      await put(owner.token, c.id, { device_name: 'x', status: 'maintenance' }),
      403,
      'Only an admin can change a device status',
    );
    expect(await deviceRow(t, c.id)).toEqual(before);
  });

  it("keeps a customer's vest a vest: an omitted type keeps the stored one, and sending it is accepted", async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner, 'Vesty');
    const [d] = await prePopulate(t, admin, [{ device_type: 'vest' }]);
    const given = await t.app.inject({
      method: 'POST',
      url: '/api/devices/register',
      headers: bearer(admin.token),
      payload: { device_id: d!.device_id, user_id: owner.id },
    });
    expect(given.statusCode, given.body).toBe(200);
    const renamed = await put(owner.token, d!.id, { device_name: 'Cool vest', dog_id: pet.id });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().device).toMatchObject({ device_type: 'vest', device_name: 'Cool vest' });
    const sentType = await put(owner.token, d!.id, {
      device_name: 'Cool vest',
      device_type: 'vest',
      dog_id: pet.id,
    });
    expect(sentType.statusCode, sentType.body).toBe(200);
    expect(sentType.json().device.device_type).toBe('vest');
    expectError(
      await put(owner.token, d!.id, { device_name: 'x', device_type: 'harness' }),
      400,
      /collar/,
    );
  });

  it('keeps the stored name when device_name is omitted', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Rex');
    const res = await put(owner.token, c.id, { dog_id: c.pet.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({ device_name: "Rex's collar", dog_id: c.pet.id });
  });

  it.each([
    ['a blank name', { device_name: '   ' }],
    ['a name over 50 characters', { device_name: 'x'.repeat(51) }],
    ['an unknown type', { device_name: 'x', device_type: 'hat' }],
    ['a malformed pet id', { device_name: 'x', dog_id: 'dog-1' }],
    ['an unknown field', { device_name: 'x', device_id: 'PET-ZZZZ' }],
    ['a body that is not an object', ['x']],
  ])('answers 400 for %s and changes nothing', async (_what, body) => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRow(t, c.id);
    expectError(await put(owner.token, c.id, body), 400);
    expect(await deviceRow(t, c.id)).toEqual(before);
  });

  it("lets an admin set a customer's device status and leaves every other field as it was", async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRow(t, c.id);
    const res = await put(admin.token, c.id, { status: 'maintenance' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await deviceRow(t, c.id);
    expect(after).toEqual({ ...before, status: 'maintenance', updated_at: after!.updated_at });
    expect(after).toMatchObject({ dog_id: c.pet.id, device_name: before!.device_name });
    expect(
      t.logs().some((l) => l.includes('"event":"admin.device_update"') && l.includes(c.id)),
    ).toBe(true);
  });

  it.each([
    ['a new name', { device_name: 'Fleet 1', status: 'maintenance' }],
    ['a new type', { device_type: 'vest' }],
    ['another pet (none)', { dog_id: null, status: 'offline' }],
  ])(
    "answers 403 to an admin's PUT with %s on a customer's device and changes nothing",
    async (_w, body) => {
      const owner = await seedUser(t);
      const c = await ownedCollar(t, admin, owner);
      const before = await deviceRow(t, c.id);
      expectError(await put(admin.token, c.id, body), 403, /only the status/);
      expect(await deviceRow(t, c.id)).toEqual(before);
    },
  );

  it('lets an admin rename and retype a device no one holds', async () => {
    const [d] = await prePopulate(t, admin);
    const res = await put(admin.token, d!.id, {
      device_name: 'Fleet 1',
      device_type: 'vest',
      status: 'maintenance',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({
      device_name: 'Fleet 1',
      device_type: 'vest',
      status: 'maintenance',
    });
  });
});

describe('DELETE /api/devices/{id}', () => {
  const del = (token: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: bearer(token) });

  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/devices/${randomUUID()}` }), 401);
  });

  it("releases the owner's collar: owner, pet, name and what its readings said cleared, unassigned, key kept", async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const reading = { temperature: 24, humidity: 40, battery: 90 };
    expect((await postAsCollar(t, c.device_id, c.device_key, reading)).statusCode).toBe(201);
    const keyHash = (await deviceRow(t, c.id))!.device_key_hash;
    const res = await del(owner.token, c.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const row = await deviceRow(t, c.id);
    expect(row).toMatchObject({
      user_id: null,
      dog_id: null,
      device_name: `Device ${c.device_id}`,
      registration_status: 'unassigned',
      device_key_hash: keyHash,
      device_id: c.device_id,
      // The next owner starts with nothing of this one's: no battery, no time last heard.
      battery_level: null,
      last_seen: null,
      temperature_celsius: null,
      vitals_recorded_at: null,
    });
    expect((await get(owner.token, '/api/devices')).json().devices).toEqual([]);
    // Back in the fleet: another customer can claim it.
    const next = await seedUser(t);
    const pet = await createDog(t, next);
    expect(
      (await assign(t, next, c.device_id, { dog_id: pet.id, device_name: 'Mine' })).statusCode,
    ).toBe(200);
    expect((await get(next.token, '/api/devices')).json().devices[0]).toMatchObject({
      battery_level: null,
      last_seen: null,
    });
  });

  it("removes a customer's unregistered device (it has no key to go back with)", async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(owner.token),
      payload: { device_id: freshDeviceId(), dog_id: pet.id, device_name: 'Mine' },
    });
    const id = created.json().device.id;
    expect((await del(owner.token, id)).statusCode).toBe(200);
    expect(await deviceRow(t, id)).toBeUndefined();
  });

  it("answers 404 for another user's device and changes nothing", async () => {
    const owner = await seedUser(t);
    const stranger = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRows(t);
    expectError(await del(stranger.token, c.id), 404, 'Device not found');
    expect(await deviceRows(t)).toEqual(before);
  });

  it('lets an admin remove a device for good', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    expect((await del(admin.token, c.id)).statusCode).toBe(200);
    expect(await deviceRow(t, c.id)).toBeUndefined();
    expect(
      t
        .logs()
        .some(
          (l) => l.includes('"event":"admin.device_delete"') && l.includes('"outcome":"success"'),
        ),
    ).toBe(true);
  });
});

describe('GET /api/devices/{id}/qr-code', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: `/api/devices/${randomUUID()}/qr-code` }), 401);
  });

  it('answers a PNG data URL to the owner and an admin, 404 to anyone else', async () => {
    const owner = await seedUser(t);
    const stranger = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const res = await get(owner.token, `/api/devices/${c.id}/qr-code`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['qr_code']);
    expect(res.json().qr_code).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/);
    // It encodes the Device ID only, where the pre-populate answer's QR code holds the key.
    expect(scanQrDataUrl(res.json().qr_code)).toBe(c.device_id);
    expect(scanQrDataUrl(c.qr_code)).toBe(c.device_key);
    expect((await get(admin.token, `/api/devices/${c.id}/qr-code`)).statusCode).toBe(200);
    expectError(await get(stranger.token, `/api/devices/${c.id}/qr-code`), 404, 'Device not found');
  });
});

describe('GET /api/devices/by-device-id/{deviceId}', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: '/api/devices/by-device-id/PET-AAAA' }), 401);
  });

  it('says whether a Device ID can be registered, in any case, and nothing more', async () => {
    const u = await seedUser(t);
    const owner = await seedUser(t);
    const [free] = await prePopulate(t, admin);
    const held = await ownedCollar(t, admin, owner);
    const a = await get(u.token, `/api/devices/by-device-id/${free!.device_id.toLowerCase()}`);
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ status: 'unassigned', message: expect.any(String) });
    const b = await get(u.token, `/api/devices/by-device-id/${held.device_id}`);
    expect(b.json()).toEqual({
      status: 'assigned',
      message: MESSAGES.deviceAlreadyAssigned(held.device_id),
    });
    expectError(await get(u.token, `/api/devices/by-device-id/${freshDeviceId()}`), 404);
    expectError(await get(u.token, '/api/devices/by-device-id/PET-12'), 400);
  });

  it('never calls a vest "available to register" to a customer; an admin still sees it free', async () => {
    const u = await seedUser(t);
    const [vest] = await prePopulate(t, admin, [{ device_type: 'vest' }]);
    expectError(
      await get(u.token, `/api/devices/by-device-id/${vest!.device_id}`),
      400,
      `Device ${vest!.device_id} is a vest; customers may register collars only.`,
    );
    const asAdmin = await get(admin.token, `/api/devices/by-device-id/${vest!.device_id}`);
    expect(asAdmin.json().status).toBe('unassigned');
  });

  it('logs every look-up', async () => {
    const u = await seedUser(t);
    const target = freshDeviceId();
    await get(u.token, `/api/devices/by-device-id/${target}`);
    expect(
      t
        .logs()
        .some(
          (l) => l.includes('"event":"device.lookup"') && l.includes(u.id) && l.includes(target),
        ),
    ).toBe(true);
  });
});

describe('POST /api/devices/assign/{deviceId}', () => {
  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/devices/assign/PET-AAAA', payload: {} }),
      401,
    );
  });

  it('claims an unassigned collar for my pet', async () => {
    const owner = await seedUser(t);
    const [d] = await prePopulate(t, admin);
    const pet = await createDog(t, owner, 'Rex');
    const res = await assign(t, owner, d!.device_id.toLowerCase(), {
      dog_id: pet.id,
      device_name: 'Rex',
      device_type: 'collar',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({
      id: d!.id,
      user_id: owner.id,
      dog_id: pet.id,
      registration_status: 'assigned',
    });
  });

  it("answers 409 'already assigned' for someone else's collar and changes nothing", async () => {
    const owner = await seedUser(t);
    const other = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const pet = await createDog(t, other);
    const before = await deviceRows(t);
    expectError(
      await assign(t, other, c.device_id, { dog_id: pet.id, device_name: 'x' }),
      409,
      MESSAGES.deviceAlreadyAssigned(c.device_id),
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it("answers 404 for another user's pet and changes nothing", async () => {
    const u = await seedUser(t);
    const other = await seedUser(t);
    const [d] = await prePopulate(t, admin);
    const theirs = await createDog(t, other);
    const before = await deviceRows(t);
    expectError(
      await assign(t, u, d!.device_id, { dog_id: theirs.id, device_name: 'x' }),
      404,
      'Pet not found',
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it('answers 404 for an unknown Device ID', async () => {
    const u = await seedUser(t);
    const pet = await createDog(t, u);
    expectError(await assign(t, u, freshDeviceId(), { dog_id: pet.id, device_name: 'x' }), 404);
  });

  it.each([
    ['no pet', { device_name: 'x' }],
    ['no name', { dog_id: randomUUID() }],
    ['a malformed pet id', { dog_id: 'PET', device_name: 'x' }],
    ['an unknown field', { dog_id: randomUUID(), device_name: 'x', user_id: randomUUID() }],
  ])('answers 400 for %s', async (_what, body) => {
    const u = await seedUser(t);
    const [d] = await prePopulate(t, admin);
    const before = await deviceRows(t);
    expectError(await assign(t, u, d!.device_id, body), 400);
    expect(await deviceRows(t)).toEqual(before);
  });

  it('refuses a customer any type but collar', async () => {
    const u = await seedUser(t);
    const [d] = await prePopulate(t, admin);
    const pet = await createDog(t, u);
    expectError(
      await assign(t, u, d!.device_id, {
        dog_id: pet.id,
        device_name: 'x',
        device_type: 'harness',
      }),
      400,
      /collar/,
    );
  });
});

describe('POST /api/devices (the fallback)', () => {
  const create = (token: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(token),
      payload: payload as object,
    });

  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/devices', payload: {} }), 401);
  });

  it('stores an unknown Device ID unregistered, without a key', async () => {
    const u = await seedUser(t);
    const pet = await createDog(t, u, 'Rex');
    const deviceId = freshDeviceId();
    const res = await create(u.token, {
      device_id: deviceId.toLowerCase(),
      dog_id: pet.id,
      device_name: 'Rex collar',
      device_type: 'collar',
      device_address: 'aa-bb-cc-00-11-22',
      firmware_version: '1.0.3',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().device).toMatchObject({
      device_id: deviceId,
      device_address: 'AA:BB:CC:00:11:22',
      registration_status: 'unregistered',
      status: 'inactive',
      user_id: u.id,
      dog_id: pet.id,
      dog_name: 'Rex',
      firmware_version: '1.0.3',
    });
    expect((await deviceRow(t, res.json().device.id))!.device_key_hash).toBeNull();
  });

  it('accepts an empty MAC as none', async () => {
    const u = await seedUser(t);
    const pet = await createDog(t, u);
    const res = await create(u.token, {
      device_id: freshDeviceId(),
      dog_id: pet.id,
      device_name: 'x',
      device_address: '',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().device.device_address).toBeNull();
  });

  it('answers 409 for a Device ID that exists, and for a MAC in use', async () => {
    const u = await seedUser(t);
    const pet = await createDog(t, u);
    const [d] = await prePopulate(t, admin, [{ device_address: '02:00:00:AA:BB:CC' }]);
    const before = await deviceRows(t);
    expectError(
      await create(u.token, { device_id: d!.device_id, dog_id: pet.id, device_name: 'x' }),
      409,
    );
    expectError(
      await create(u.token, {
        device_id: freshDeviceId(),
        dog_id: pet.id,
        device_name: 'x',
        device_address: '020000aabbcc',
      }),
      409,
      /MAC address 02:00:00:AA:BB:CC/,
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it("answers 404 for another user's pet and stores nothing", async () => {
    const u = await seedUser(t);
    const other = await seedUser(t);
    const theirs = await createDog(t, other);
    const before = await deviceRows(t);
    expectError(
      await create(u.token, { device_id: freshDeviceId(), dog_id: theirs.id, device_name: 'x' }),
      404,
      'Pet not found',
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it.each([
    ['no Device ID', { device_name: 'x' }],
    ['a malformed Device ID', { device_id: 'PET-12345', device_name: 'x' }],
    ['a malformed MAC', { device_id: 'PET-ZZZ1', device_name: 'x', device_address: 'AA:BB:CC' }],
    ['no name', { device_id: 'PET-ZZZ1' }],
    ['a vest', { device_id: 'PET-ZZZ1', device_name: 'x', device_type: 'vest' }],
    [
      'a registration_status',
      { device_id: 'PET-ZZZ1', device_name: 'x', registration_status: 'active' },
    ],
  ])('answers 400 for %s and stores nothing', async (_what, body) => {
    const u = await seedUser(t);
    const pet = await createDog(t, u);
    const before = await deviceRows(t);
    expectError(await create(u.token, { dog_id: pet.id, ...body }), 400);
    expect(await deviceRows(t)).toEqual(before);
  });
});

describe('deleting a pet or a user', () => {
  it("leaves a deleted pet's collars with the owner, on no pet", async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Rex');
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/dogs/${c.pet.id}`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const device = (await get(owner.token, `/api/devices/${c.id}`)).json().device;
    expect(device).toMatchObject({
      user_id: owner.id,
      dog_id: null,
      dog_name: null,
      registration_status: 'assigned',
    });
    // …and it can go on another of the owner's pets.
    const luna = await createDog(t, owner, 'Luna');
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
      payload: { device_name: 'Luna', dog_id: luna.id },
    });
    expect(moved.json().device.dog_name).toBe('Luna');
  });

  it("releases a deleted user's collars back to the fleet and removes their unregistered devices", async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const pet = await createDog(t, owner, 'Second');
    const fallback = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(owner.token),
      payload: {
        device_id: freshDeviceId(),
        dog_id: pet.id,
        device_name: 'x',
        device_address: freshMac(),
      },
    });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/users/${owner.id}`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await deviceRow(t, c.id)).toMatchObject({
      user_id: null,
      dog_id: null,
      registration_status: 'unassigned',
    });
    expect(await deviceRow(t, fallback.json().device.id)).toBeUndefined();
    const unassigned = (await get(admin.token, '/api/admin/devices/unassigned')).json().devices;
    expect(unassigned.map((d: { id: string }) => d.id)).toContain(c.id);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After after 10 look-ups and fallbacks a minute per user', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
    try {
      const u = await seedUser(limited);
      const other = await seedUser(limited);
      const pet = await limited.app.inject({
        method: 'POST',
        url: '/api/dogs',
        headers: bearer(u.token),
        payload: { name: 'R' },
      });
      const dogId = pet.json().dog.id;
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await limited.app.inject({
              url: `/api/devices/by-device-id/${freshDeviceId()}`,
              headers: bearer(u.token),
            })
          ).statusCode,
        ).toBe(404);
      }
      for (let i = 0; i < 5; i++) {
        const r = await limited.app.inject({
          method: 'POST',
          url: '/api/devices',
          headers: bearer(u.token),
          payload: { device_id: freshDeviceId(), dog_id: dogId, device_name: 'x' },
        });
        expect(r.statusCode).toBe(201);
      }
      const refused = await limited.app.inject({
        url: `/api/devices/by-device-id/${freshDeviceId()}`,
        headers: bearer(u.token),
      });
      expectError(refused, 429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // One user's budget is theirs alone.
      expect(
        (
          await limited.app.inject({
            url: `/api/devices/by-device-id/${freshDeviceId()}`,
            headers: bearer(other.token),
          })
        ).statusCode,
      ).toBe(404);
      // The window ends.
      limited.clock.advance(61_000);
      expect(
        (
          await limited.app.inject({
            url: `/api/devices/by-device-id/${freshDeviceId()}`,
            headers: bearer(u.token),
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('counts claims against the same budget, since their answers reveal whether a Device ID exists', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
    try {
      const u = await seedUser(limited);
      const dogId = (
        await limited.app.inject({
          method: 'POST',
          url: '/api/dogs',
          headers: bearer(u.token),
          payload: { name: 'R' },
        })
      ).json().dog.id;
      const claim = () =>
        limited.app.inject({
          method: 'POST',
          url: `/api/devices/assign/${freshDeviceId()}`,
          headers: bearer(u.token),
          payload: { dog_id: dogId, device_name: 'Collar' },
        });
      for (let i = 0; i < 10; i++) expect((await claim()).statusCode).toBe(404);
      const refused = await claim();
      expectError(refused, 429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

describe('the device key', () => {
  it('never appears in any answer but pre-populate', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const urls = [
      '/api/devices',
      '/api/devices/all',
      `/api/devices/${c.id}`,
      `/api/devices/${c.id}/qr-code`,
      `/api/devices/by-device-id/${c.device_id}`,
      '/api/admin/devices/unassigned',
    ];
    const bodies: string[] = [];
    for (const url of urls) {
      bodies.push((await get(owner.token, url)).body, (await get(admin.token, url)).body);
    }
    const row = await deviceRow(t, c.id);
    bodies.push((await get(admin.token, `/api/devices/by-mac/${row!.device_address}`)).body);
    for (const body of bodies) {
      expect(body).not.toContain(c.device_key);
      expect(body).not.toContain(row!.device_key_hash!);
      expect(body).not.toMatch(/device_key/);
    }
  });
});
