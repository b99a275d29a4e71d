import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { createDog, freshDeviceId, ownedCollar, prePopulate } from '../helpers/devices.js';
import type { CredentialsChange } from '../../src/services/devices/device-news.js';

/**
 * What the device services tell once a change commits, for ingestion to forget a device's
 * credentials: every reason, after commit, never for a change rolled back.
 */
let t: TestApp;
let admin: SeededUser;
let seen: CredentialsChange[] = [];
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  const changes = t.app.container.deviceChanges;
  const told = changes.credentialsChanged.bind(changes);
  vi.spyOn(changes, 'credentialsChanged').mockImplementation((c) => {
    seen.push(...(Array.isArray(c) ? c : [c]));
    told(c);
  });
});
afterAll(() => t.close());
const reset = () => (seen = []);

describe('the credentials changes told after commit', () => {
  it('hears of a release by the owner and a removal by an admin', async () => {
    const owner = await seedUser(t);
    const mine = await ownedCollar(t, admin, owner);
    const [fleet] = await prePopulate(t, admin);
    reset();
    const del = (token: string, id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/devices/${id}`, headers: bearer(token) });
    expect((await del(owner.token, mine.id)).statusCode).toBe(200);
    expect((await del(admin.token, fleet!.id)).statusCode).toBe(200);
    expect(seen).toEqual([
      { id: mine.id, device_id: mine.device_id, reason: 'released', owner_id: owner.id },
      { id: fleet!.id, device_id: fleet!.device_id, reason: 'removed', owner_id: null },
    ]);
  });

  it("hears of every device of a deleted account, after the account's transaction", async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    reset();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/users/${owner.id}`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect(seen).toEqual([
      { id: c.id, device_id: c.device_id, reason: 'user_deleted', owner_id: expect.any(String) },
    ]);
  });

  it('says nothing when the deletion is rolled back', async () => {
    const owner = await seedUser(t);
    await ownedCollar(t, admin, owner);
    const spy = vi
      .spyOn(t.app.container.repos.users, 'delete')
      .mockRejectedValueOnce(new Error('connection lost'));
    reset();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/users/${owner.id}`,
      headers: bearer(admin.token),
    });
    spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect(seen).toEqual([]);
  });

  it('hears of an adoption that gives a customer’s device a key', async () => {
    const owner = await seedUser(t);
    const pet = await createDog(t, owner);
    const id = freshDeviceId();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(owner.token),
      payload: { device_id: id, dog_id: pet.id, device_name: 'Mine' },
    });
    reset();
    await prePopulate(t, admin, [{ device_id: id }, {}]);
    expect(seen).toEqual([{ id: created.json().device.id, device_id: id, reason: 'rekeyed' }]);
  });

  it('keeps serving, and drops the rest, when one step of forgetting throws', async () => {
    const { keys, mqtt, bus } = t.app.container;
    const [d] = await prePopulate(t, admin);
    const broken = vi.spyOn(keys, 'invalidate').mockImplementation(() => {
      throw new Error('cache bug');
    });
    const disconnect = vi.spyOn(mqtt, 'disconnectDevice');
    const published: unknown[] = [];
    const off = bus.subscribe((m) => published.push(m));
    reset();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${d!.id}`,
      headers: bearer(admin.token),
    });
    off();
    broken.mockRestore();
    expect(res.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
    expect(disconnect).toHaveBeenCalledWith(d!.id);
    disconnect.mockRestore();
    expect(published).toContainEqual(
      expect.objectContaining({ event: { type: 'device', device: d!.id, change: 'removed' } }),
    );
    expect(t.logs().some((l) => l.includes('cache bug'))).toBe(true);
  });
});
