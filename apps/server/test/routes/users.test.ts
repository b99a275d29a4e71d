import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  login,
  seedUser,
  TEST_PASSWORD,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { expectError, seedDog } from '../helpers/api.js';

let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin', name: 'Ada Admin' });
});
afterAll(() => t.close());

const setRole = (token: string, id: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/auth/users/${id}/role`,
    headers: bearer(token),
    payload: payload as object,
  });
const deleteUser = (token: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/auth/users/${id}`, headers: bearer(token) });

describe('GET /api/auth/users', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: '/api/auth/users' }), 401, 'Authentication required');
  });

  it('refuses a user with 403', async () => {
    const u = await seedUser(t);
    expectError(
      await t.app.inject({ url: '/api/auth/users', headers: bearer(u.token) }),
      403,
      'Admin access required',
    );
  });

  it('lists every user with how many pets they have', async () => {
    const owner = await seedUser(t, { name: 'Two Pets' });
    await seedDog(t, owner.id);
    await seedDog(t, owner.id);
    const res = await t.app.inject({ url: '/api/auth/users', headers: bearer(admin.token) });
    expect(res.statusCode).toBe(200);
    const users = res.json().users as Array<Record<string, unknown>>;
    expect(users.find((u) => u.id === owner.id)).toEqual({
      id: owner.id,
      name: 'Two Pets',
      email: owner.email,
      role: 'user',
      time_zone: null,
      temperature_unit: null,
      weight_unit: null,
      created_at: expect.any(String),
      dogs_count: 2,
    });
    expect(users.find((u) => u.id === admin.id)).toMatchObject({ role: 'admin', dogs_count: 0 });
  });
});

describe('PUT /api/auth/users/{id}/role', () => {
  it('rejects a request without a token', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/auth/users/${admin.id}/role`,
      payload: { role: 'user' },
    });
    expectError(res, 401, 'Authentication required');
  });

  it('refuses a user with 403, also when they try to promote themselves', async () => {
    const u = await seedUser(t);
    expectError(await setRole(u.token, u.id, { role: 'admin' }), 403, 'Admin access required');
    const row = await t.app.container.repos.users.findById(u.id);
    expect(row?.role).toBe('user');
  });

  it('promotes a user, whose same token passes admin calls at the next request', async () => {
    const u = await seedUser(t);
    expect(
      (await t.app.inject({ url: '/api/dogs/all', headers: bearer(u.token) })).statusCode,
    ).toBe(403);
    const res = await setRole(admin.token, u.id, { role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: u.id,
        name: u.name,
        email: u.email,
        role: 'admin',
        time_zone: null,
        temperature_unit: null,
        weight_unit: null,
        created_at: expect.any(String),
      },
    });
    expect(
      (await t.app.inject({ url: '/api/dogs/all', headers: bearer(u.token) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: '/api/auth/users', headers: bearer(u.token) })).statusCode,
    ).toBe(200);
  });

  it('demotes an admin, whose same token is refused admin calls at the next request', async () => {
    const other = await seedUser(t, { role: 'admin' });
    const res = await setRole(admin.token, other.id, { role: 'user' });
    expect(res.json().user.role).toBe('user');
    expectError(
      await t.app.inject({ url: '/api/auth/users', headers: bearer(other.token) }),
      403,
      'Admin access required',
    );
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await setRole(admin.token, randomUUID(), { role: 'admin' }), 404, 'User not found');
  });

  it.each([
    ['an unknown role', { role: 'superuser' }, 'role must be admin or user'],
    ['a missing role', {}, 'role is required'],
    ['an extra field', { role: 'user', email: 'x@example.com' }, 'Unknown field: email'],
  ])('answers 400 for %s', async (_what, payload, message) => {
    const u = await seedUser(t);
    expectError(await setRole(admin.token, u.id, payload), 400, message);
  });

  it('answers 400 for an id that is not an id', async () => {
    expectError(
      await setRole(admin.token, 'not-a-uuid', { role: 'user' }),
      400,
      'id must be a valid id',
    );
  });
});

describe('DELETE /api/auth/users/{id}', () => {
  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/api/auth/users/${admin.id}` }),
      401,
      'Authentication required',
    );
  });

  it('refuses a user with 403 and deletes nothing', async () => {
    const u = await seedUser(t);
    const victim = await seedUser(t);
    expectError(await deleteUser(u.token, victim.id), 403, 'Admin access required');
    expect(await t.app.container.repos.users.findById(victim.id)).toBeDefined();
  });

  it('removes the account, its pets and its sessions: its token is refused', async () => {
    const victim = await seedUser(t);
    await seedDog(t, victim.id);
    await seedDog(t, victim.id);
    const bystander = await seedUser(t);
    const keep = await seedDog(t, bystander.id);

    const res = await deleteUser(admin.token, victim.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });

    const db = t.app.container.db;
    expect(await t.app.container.repos.users.findById(victim.id)).toBeUndefined();
    expect(
      await db.selectFrom('dogs').select('id').where('user_id', '=', victim.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('sessions').select('id').where('user_id', '=', victim.id).execute(),
    ).toEqual([]);
    expectError(
      await t.app.inject({ url: '/api/auth/profile', headers: bearer(victim.token) }),
      401,
      'Authentication required',
    );
    expect(await t.app.container.repos.dogs.findOwned(keep.id, bystander.id)).toBeDefined();
    await expect(login(t, victim.email, TEST_PASSWORD)).rejects.toThrow(/401/);
  });

  it('refuses to let an admin delete themselves', async () => {
    expectError(await deleteUser(admin.token, admin.id), 403, 'You cannot delete your own account');
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(admin.token) })).statusCode,
    ).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await deleteUser(admin.token, randomUUID()), 404, 'User not found');
  });
});

describe('the last admin', () => {
  it('cannot be demoted (409) and stays admin', async () => {
    const solo = await createTestApp();
    try {
      const token = await login(solo, 'admin@example.com', TEST_PASSWORD);
      const me = (
        await solo.app.inject({ url: '/api/auth/profile', headers: bearer(token) })
      ).json().user;
      const res = await solo.app.inject({
        method: 'PUT',
        url: `/api/auth/users/${me.id}/role`,
        headers: bearer(token),
        payload: { role: 'user' },
      });
      expectError(res, 409, 'The last admin cannot be made a user');
      expect(
        (await solo.app.inject({ url: '/api/auth/users', headers: bearer(token) })).statusCode,
      ).toBe(200);
    } finally {
      await solo.close();
    }
  });

  it('cannot be deleted (409), even by a caller whose own admin role has just gone', async () => {
    const solo = await createTestApp();
    try {
      const only = await solo.app.container.repos.users.findByEmail('admin@example.com');
      const former = await seedUser(solo);
      await expect(solo.app.container.users.delete(only!.id, former.id)).rejects.toMatchObject({
        statusCode: 409,
        message: 'The last admin cannot be deleted',
      });
      expect(await solo.app.container.repos.users.findById(only!.id)).toBeDefined();
    } finally {
      await solo.close();
    }
  });
});
