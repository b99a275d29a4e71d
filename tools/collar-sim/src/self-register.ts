// What a collar does when it is powered on, before its first reading: it reports its firmware
// version and MAC address with its own key (POST /api/devices/self-register). Until it has,
// the owner's Devices screen still shows it as not having reported itself.
import { selfRegisterResponseSchema, type SelfRegisterInput } from '@pawguard/shared';
import type { SimCollar } from './provision.js';

/** The firmware the virtual collars report (at most 50 characters). */
export const SIM_FIRMWARE_VERSION = 'collar-sim 1.0';

export type SelfRegisterResult = { ok: true } | { ok: false; error: string };

/** One collar reports itself; an error is described, never thrown. */
export async function selfRegister(
  base: string,
  collar: Pick<SimCollar, 'device_key' | 'device_address'>,
  firmwareVersion = SIM_FIRMWARE_VERSION,
): Promise<SelfRegisterResult> {
  const body: SelfRegisterInput = {
    firmware_version: firmwareVersion,
    device_address: collar.device_address,
  };
  try {
    const res = await fetch(`${base}/api/devices/self-register`, {
      method: 'POST',
      headers: {
        authorization: `Device ${collar.device_key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text;
      } catch {
        // not JSON: keep the text
      }
      return { ok: false, error: `${res.status} ${message}`.trim() };
    }
    selfRegisterResponseSchema.parse(JSON.parse(text));
    return { ok: true };
  } catch (err) {
    const e = err as { cause?: { code?: string }; message?: string };
    return { ok: false, error: `network: ${e.cause?.code ?? e.message ?? String(err)}` };
  }
}

/**
 * Every collar reports itself, a few at a time as a fleet switched on together would. A
 * refusal does not stop the simulation (the readings do not depend on it): it is counted.
 */
export async function selfRegisterAll(
  base: string,
  collars: readonly SimCollar[],
  firmwareVersion = SIM_FIRMWARE_VERSION,
): Promise<{ registered: number; failed: number; firstError: string }> {
  let registered = 0;
  let failed = 0;
  let firstError = '';
  for (let i = 0; i < collars.length; i += 20) {
    const results = await Promise.all(
      collars.slice(i, i + 20).map((c) => selfRegister(base, c, firmwareVersion)),
    );
    for (const r of results) {
      if (r.ok) registered++;
      else {
        failed++;
        firstError ||= r.error;
      }
    }
  }
  return { registered, failed, firstError };
}
