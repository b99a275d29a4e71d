import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { scanQrDataUrl } from '../helpers/qr-image.js';
import {
  createDog,
  deviceRow,
  deviceRows,
  freshDeviceId,
  freshMac,
  ownedCollar,
  prePopulate,
} from '../helpers/devices.js';

let t: TestApp;
let admin: SeededUser;
let user: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin', name: 'Ada Admin' });
  user = await seedUser(t);
});
afterAll(() => t.close());

const prePopulateCall = (token: string | null, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/devices/pre-populate',
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });

describe('every admin device call', () => {
  const calls = (): Array<{ method: 'GET' | 'POST'; url: string; payload?: object }> => [
    { method: 'GET', url: '/api/devices/all' },
    { method: 'GET', url: '/api/devices/generate-id' },
    { method: 'GET', url: '/api/devices/by-mac/AA:BB:CC:DD:EE:FF' },
    { method: 'GET', url: '/api/admin/devices/unassigned' },
    {
      method: 'POST',
      url: '/api/admin/devices/pre-populate',
      payload: { devices: [{ device_id: freshDeviceId(), device_address: freshMac() }] },
    },
    {
      method: 'POST',
      url: '/api/devices/register',
      payload: { device_id: 'PET-AAAA', user_id: randomUUID() },
    },
  ];

  it('rejects a request without a token with 401', async () => {
    for (const c of calls()) expectError(await t.app.inject(c), 401);
  });

  it('refuses a user with 403 and changes nothing', async () => {
    const before = await deviceRows(t);
    for (const c of calls())
      expectError(
        await t.app.inject({ ...c, headers: bearer(user.token) }),
        403,
        'Admin access required',
      );
    expect(await deviceRows(t)).toEqual(before);
  });
});

describe('POST /api/admin/devices/pre-populate', () => {
  it('adds devices unassigned, with a default name, type collar, a key and its QR code', async () => {
    const id = freshDeviceId();
    const res = await prePopulateCall(admin.token, {
      devices: [
        { device_id: id.toLowerCase(), device_address: 'aa-bb-cc-dd-ee-01' },
        {
          device_id: freshDeviceId(),
          device_address: 'AABBCCDDEE02',
          device_name: 'Shop demo',
          device_type: 'tracker',
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const out = res.json().devices;
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual({
      id: expect.any(String),
      device_id: id,
      device_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      qr_code: expect.stringMatching(/^data:image\/png;base64,/),
      adopted: false,
      owner_name: null,
    });
    expect(scanQrDataUrl(out[0].qr_code)).toBe(out[0].device_key);
    expect(await deviceRow(t, out[0].id)).toMatchObject({
      device_id: id,
      device_address: 'AA:BB:CC:DD:EE:01',
      device_name: `Device ${id}`,
      device_type: 'collar',
      status: 'inactive',
      registration_status: 'unassigned',
      user_id: null,
      dog_id: null,
    });
    expect(await deviceRow(t, out[1].id)).toMatchObject({
      device_address: 'AA:BB:CC:DD:EE:02',
      device_name: 'Shop demo',
      device_type: 'tracker',
    });
    expect(
      t
        .logs()
        .some(
          (l) =>
            l.includes('"event":"admin.device_prepopulate"') &&
            l.includes(id) &&
            l.includes(admin.id),
        ),
    ).toBe(true);
    expect(t.logs().some((l) => l.includes(out[0].device_key))).toBe(false);
  });

  it('stores nothing when one item of the list is a duplicate, and names it (409)', async () => {
    const [stored] = await prePopulate(t, admin);
    const storedMac = (await deviceRow(t, stored!.id))!.device_address!;
    const fresh = () => ({ device_id: freshDeviceId(), device_address: freshMac() });
    const dupId = freshDeviceId();
    const dupMac = freshMac();
    const cases: Array<[unknown[], RegExp]> = [
      [
        [fresh(), { device_id: stored!.device_id.toLowerCase(), device_address: freshMac() }],
        new RegExp(`Device ID ${stored!.device_id}`),
      ],
      [
        [
          fresh(),
          {
            device_id: freshDeviceId(),
            device_address: storedMac.toLowerCase().replace(/:/g, '-'),
          },
        ],
        new RegExp(`MAC address ${storedMac}`),
      ],
      [
        [
          { device_id: dupId, device_address: freshMac() },
          { device_id: dupId, device_address: freshMac() },
        ],
        new RegExp(`Device ID ${dupId}`),
      ],
      [
        [
          { device_id: freshDeviceId(), device_address: dupMac },
          { device_id: freshDeviceId(), device_address: dupMac.replace(/:/g, '') },
        ],
        new RegExp(`MAC address ${dupMac}`),
      ],
    ];
    for (const [devices, message] of cases) {
      const before = await deviceRows(t);
      expectError(await prePopulateCall(admin.token, { devices }), 409, message);
      expect(await deviceRows(t)).toEqual(before);
    }
    expect(
      t
        .logs()
        .some(
          (l) =>
            l.includes('"event":"admin.device_prepopulate"') && l.includes('"outcome":"failure"'),
        ),
    ).toBe(true);
  });

  it.each([
    ['an empty list', { devices: [] }],
    ['no list', {}],
    ['an item without a MAC', { devices: [{ device_id: 'PET-AB12' }] }],
    ['an item without a Device ID', { devices: [{ device_address: 'AA:BB:CC:DD:EE:FF' }] }],
    [
      'a malformed Device ID',
      { devices: [{ device_id: 'PET-AB123', device_address: 'AA:BB:CC:DD:EE:FF' }] },
    ],
    ['a malformed MAC', { devices: [{ device_id: 'PET-AB12', device_address: 'AA:BB:CC:DD:EE' }] }],
    [
      'an unknown type',
      {
        devices: [
          { device_id: 'PET-AB12', device_address: 'AA:BB:CC:DD:EE:FF', device_type: 'hat' },
        ],
      },
    ],
    [
      'a key chosen by the caller',
      {
        devices: [
          { device_id: 'PET-AB12', device_address: 'AA:BB:CC:DD:EE:FF', device_key: 'mine' },
        ],
      },
    ],
    [
      'an owner chosen by the caller',
      {
        devices: [
          { device_id: 'PET-AB12', device_address: 'AA:BB:CC:DD:EE:FF', user_id: randomUUID() },
        ],
      },
    ],
    [
      'more than 100 devices',
      {
        devices: Array.from({ length: 101 }, (_, i) => ({
          device_id: `PET-${String(i).padStart(4, '0')}`,
          device_address: freshMac(),
        })),
      },
    ],
  ])('answers 400 for %s and stores nothing', async (_what, body) => {
    const before = await deviceRows(t);
    expectError(await prePopulateCall(admin.token, body), 400);
    expect(await deviceRows(t)).toEqual(before);
  });

  it('names the index of the bad item', async () => {
    const res = await prePopulateCall(admin.token, {
      devices: [
        { device_id: freshDeviceId(), device_address: freshMac() },
        { device_id: 'nope', device_address: freshMac() },
      ],
    });
    expectError(res, 400, /^devices\.1\.device_id must be PET-/);
  });
});

describe('GET /api/devices/all', () => {
  it('lists every device, newest first, with owner and pet names', async () => {
    const owner = await seedUser(t, { name: 'Olive Owner' });
    const c = await ownedCollar(t, admin, owner, 'Rex');
    const [free] = await prePopulate(t, admin);
    const res = await t.app.inject({ url: '/api/devices/all', headers: bearer(admin.token) });
    expect(res.statusCode).toBe(200);
    const devices = res.json().devices as Array<Record<string, unknown>>;
    expect(devices[0]!.id).toBe(free!.id);
    expect(devices.find((d) => d.id === c.id)).toMatchObject({
      owner_name: 'Olive Owner',
      dog_name: 'Rex',
      user_id: owner.id,
    });
    expect(devices.find((d) => d.id === free!.id)).toMatchObject({
      owner_name: null,
      dog_name: null,
    });
  });
});

describe('GET /api/admin/devices/unassigned', () => {
  it('lists only devices nobody holds', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const [free] = await prePopulate(t, admin);
    const devices = (
      await t.app.inject({ url: '/api/admin/devices/unassigned', headers: bearer(admin.token) })
    ).json().devices;
    const ids = devices.map((d: { id: string }) => d.id);
    expect(ids).toContain(free!.id);
    expect(ids).not.toContain(c.id);
    expect(
      devices.every((d: { registration_status: string }) => d.registration_status === 'unassigned'),
    ).toBe(true);
  });
});

describe('GET /api/devices/generate-id', () => {
  it("answers an unused 'PET-' + 4 upper-case alphanumerics", async () => {
    const res = await t.app.inject({
      url: '/api/devices/generate-id',
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['device_id']);
    const id = res.json().device_id;
    expect(id).toMatch(/^PET-[A-Z0-9]{4}$/);
    expect(
      (await t.app.inject({ url: `/api/devices/by-device-id/${id}`, headers: bearer(user.token) }))
        .statusCode,
    ).toBe(404);
  });
});

describe('GET /api/devices/by-mac/{mac}', () => {
  it('finds a device by its MAC in any notation', async () => {
    const mac = freshMac();
    const [d] = await prePopulate(t, admin, [{ device_address: mac }]);
    for (const notation of [
      mac,
      mac.toLowerCase(),
      mac.replace(/:/g, '-'),
      mac.replace(/:/g, ''),
    ]) {
      const res = await t.app.inject({
        url: `/api/devices/by-mac/${encodeURIComponent(notation)}`,
        headers: bearer(admin.token),
      });
      expect(res.statusCode, notation).toBe(200);
      expect(res.json().device.id).toBe(d!.id);
    }
  });

  it('answers 404 for an unknown MAC and 400 for a malformed one', async () => {
    expectError(
      await t.app.inject({
        url: `/api/devices/by-mac/${freshMac()}`,
        headers: bearer(admin.token),
      }),
      404,
    );
    expectError(
      await t.app.inject({ url: '/api/devices/by-mac/not-a-mac', headers: bearer(admin.token) }),
      400,
    );
  });
});

describe('POST /api/devices/register', () => {
  const register = (payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/devices/register',
      headers: bearer(admin.token),
      payload: payload as object,
    });

  it('assigns an unassigned device to a user, on none of their pets', async () => {
    const owner = await seedUser(t);
    const [d] = await prePopulate(t, admin);
    const res = await register({ device_id: d!.device_id.toLowerCase(), user_id: owner.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().device).toMatchObject({
      id: d!.id,
      user_id: owner.id,
      dog_id: null,
      registration_status: 'assigned',
    });
    // The owner sees it and can put it on a pet.
    const pet = await createDog(t, owner);
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${d!.id}`,
      headers: bearer(owner.token),
      payload: { device_name: 'Mine', dog_id: pet.id },
    });
    expect(moved.json().device.dog_id).toBe(pet.id);
    expect(
      t
        .logs()
        .some((l) => l.includes('"event":"admin.device_register"') && l.includes(d!.device_id)),
    ).toBe(true);
  });

  it("answers 409 for another user's device and changes nothing", async () => {
    const owner = await seedUser(t);
    const other = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const before = await deviceRows(t);
    expectError(
      await register({ device_id: c.device_id, user_id: other.id }),
      409,
      MESSAGES.deviceAlreadyAssigned(c.device_id),
    );
    expect(await deviceRows(t)).toEqual(before);
  });

  it('answers 404 for an unknown device or user', async () => {
    const [d] = await prePopulate(t, admin);
    expectError(await register({ device_id: freshDeviceId(), user_id: user.id }), 404);
    expectError(
      await register({ device_id: d!.device_id, user_id: randomUUID() }),
      404,
      'User not found',
    );
  });

  it.each([
    ['no user', { device_id: 'PET-AB12' }],
    ['no device', { user_id: randomUUID() }],
    ['a malformed user id', { device_id: 'PET-AB12', user_id: '1' }],
    ['an unknown field', { device_id: 'PET-AB12', user_id: randomUUID(), dog_id: randomUUID() }],
  ])('answers 400 for %s', async (_what, body) => {
    expectError(await register(body), 400);
  });
});
