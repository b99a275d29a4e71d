import { afterEach, describe, expect, it, vi } from 'vitest';
import { selfRegisterInputSchema } from '@pawguard/shared';
import { selfRegister, selfRegisterAll, SIM_FIRMWARE_VERSION } from './self-register.js';

const collar = {
  device_id: 'PET-AB12',
  device_key: 'k3y',
  pet_name: 'Biscuit',
  device_address: '02:AA:BB:CC:DD:EE',
};
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
const registered = answer(200, {
  device: {
    device_id: 'PET-AB12',
    device_address: '02:AA:BB:CC:DD:EE',
    firmware_version: SIM_FIRMWARE_VERSION,
    registration_status: 'assigned',
    status: 'inactive',
  },
});

afterEach(() => vi.unstubAllGlobals());

describe('a virtual collar reporting itself on power-on', () => {
  it('posts its firmware version and MAC with its own key, as the server’s contract takes them', async () => {
    const fetch = vi.fn(async () => registered.clone());
    vi.stubGlobal('fetch', fetch);
    expect(await selfRegister('http://pawguard.test', collar)).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://pawguard.test/api/devices/self-register');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ authorization: 'Device k3y' });
    const body = selfRegisterInputSchema.parse(JSON.parse(String(init.body)));
    expect(body).toEqual({
      firmware_version: SIM_FIRMWARE_VERSION,
      device_address: '02:AA:BB:CC:DD:EE',
    });
  });

  it('describes a refusal instead of throwing, and counts it among the fleet', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) =>
        String(init.body).includes('02:AA')
          ? registered.clone()
          : answer(409, {
              error: 'MAC address 02:FF:00:00:00:01 is already used by another device',
            }),
      ),
    );
    const other = { ...collar, device_key: 'k2', device_address: '02:FF:00:00:00:01' };
    expect(await selfRegisterAll('http://pawguard.test', [collar, other])).toEqual({
      registered: 1,
      failed: 1,
      firstError: '409 MAC address 02:FF:00:00:00:01 is already used by another device',
    });
  });
});
