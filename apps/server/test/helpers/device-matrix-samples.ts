import type { InjectOptions } from 'fastify';
import { bearer, type SeededUser, type TestApp } from './app.js';
import { freshDeviceId, freshMac, type PrePopulated } from './devices.js';

type Principal = 'anon' | 'user' | 'admin';

/**
 * Sample requests for the device rows of security/authorization-matrix.json: a request each
 * principal may legitimately make (on its own objects), so the matrix shows only what the
 * role decides. Spread into the matrix test's `samples`:
 *
 *   ...deviceMatrixSamples({ t: () => t, who, user: () => user, admin: () => admin }),
 */
export function deviceMatrixSamples(ctx: {
  t: () => TestApp;
  who: (p: Principal) => SeededUser | undefined;
  user: () => SeededUser;
  admin: () => SeededUser;
}): Record<string, (p: Principal) => Promise<InjectOptions>> {
  const app = () => ctx.t().app;
  const as = (p: Principal) => ctx.who(p) ?? ctx.user();

  async function prePopulate(): Promise<PrePopulated & { mac: string }> {
    const mac = freshMac();
    const res = await app().inject({
      method: 'POST',
      url: '/api/admin/devices/pre-populate',
      headers: bearer(ctx.admin().token),
      payload: { devices: [{ device_id: freshDeviceId(), device_address: mac }] },
    });
    return { ...res.json().devices[0], mac };
  }
  async function pet(owner: SeededUser): Promise<string> {
    const res = await app().inject({
      method: 'POST',
      url: '/api/dogs',
      headers: bearer(owner.token),
      payload: { name: 'Matrix Pet' },
    });
    if (res.statusCode !== 201)
      throw new Error(`pet for the sample: ${res.statusCode} ${res.body}`);
    return res.json().dog.id;
  }
  /** A collar the principal holds (the user's, for anon). */
  async function ownCollar(p: Principal): Promise<string> {
    const owner = as(p);
    const d = await prePopulate();
    await app().inject({
      method: 'POST',
      url: `/api/devices/assign/${d.device_id}`,
      headers: bearer(owner.token),
      payload: { dog_id: await pet(owner), device_name: 'Matrix collar' },
    });
    return d.id;
  }

  return {
    'GET /api/devices': async () => ({ url: '/api/devices' }),
    'GET /api/devices/all': async () => ({ url: '/api/devices/all' }),
    'GET /api/devices/generate-id': async () => ({ url: '/api/devices/generate-id' }),
    'GET /api/devices/by-mac/:mac': async () => ({
      url: `/api/devices/by-mac/${(await prePopulate()).mac}`,
    }),
    'GET /api/devices/by-device-id/:deviceId': async () => ({
      url: `/api/devices/by-device-id/${(await prePopulate()).device_id}`,
    }),
    'POST /api/devices/assign/:deviceId': async (p) => ({
      method: 'POST',
      url: `/api/devices/assign/${(await prePopulate()).device_id}`,
      payload: { dog_id: await pet(as(p)), device_name: 'Matrix collar' },
    }),
    'POST /api/devices': async (p) => ({
      method: 'POST',
      url: '/api/devices',
      payload: {
        device_id: freshDeviceId(),
        dog_id: await pet(as(p)),
        device_name: 'Matrix fallback',
      },
    }),
    'POST /api/devices/register': async () => ({
      method: 'POST',
      url: '/api/devices/register',
      payload: { device_id: (await prePopulate()).device_id, user_id: ctx.user().id },
    }),
    // A bearer token is not a device key: every principal of the matrix is refused.
    'POST /api/devices/self-register': async () => ({
      method: 'POST',
      url: '/api/devices/self-register',
      payload: { firmware_version: '1.0.0', device_address: freshMac() },
    }),
    'GET /api/devices/:id': async (p) => ({ url: `/api/devices/${await ownCollar(p)}` }),
    'PUT /api/devices/:id': async (p) => ({
      method: 'PUT',
      url: `/api/devices/${await ownCollar(p)}`,
      payload: { device_name: 'Renamed' },
    }),
    'DELETE /api/devices/:id': async (p) => ({
      method: 'DELETE',
      url: `/api/devices/${await ownCollar(p)}`,
    }),
    'GET /api/devices/:id/qr-code': async (p) => ({
      url: `/api/devices/${await ownCollar(p)}/qr-code`,
    }),
    'GET /api/admin/devices/unassigned': async () => ({ url: '/api/admin/devices/unassigned' }),
    'POST /api/admin/devices/pre-populate': async () => ({
      method: 'POST',
      url: '/api/admin/devices/pre-populate',
      payload: { devices: [{ device_id: freshDeviceId(), device_address: freshMac() }] },
    }),
    'POST /api/admin/devices/:id/rotate-key': async () => ({
      method: 'POST',
      url: `/api/admin/devices/${(await prePopulate()).id}/rotate-key`,
    }),
    'POST /api/device-registration/auto-assign': async (p) => {
      await prePopulate();
      return {
        method: 'POST',
        url: '/api/device-registration/auto-assign',
        payload: { dog_id: await pet(as(p)), device_name: 'Matrix auto' },
      };
    },
  };
}
