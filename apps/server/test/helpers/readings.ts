import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';
import { deviceAuth } from './devices.js';

/** Posts a reading (or a list) as the collar itself, with its key. */
export function postAsCollar(
  t: TestApp,
  deviceId: string,
  key: string,
  payload: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/devices/${deviceId}/vitals`,
    headers: { ...deviceAuth(key), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

/** Every stored reading, oldest first, to prove a refused request stored nothing. */
export function readingRows(t: TestApp, deviceUuid?: string) {
  let q = t.app.container.db.selectFrom('readings').selectAll();
  if (deviceUuid) q = q.where('device_uuid', '=', deviceUuid);
  return q.orderBy('recorded_at').orderBy('id').execute();
}

/** An ISO time `ms` before the test clock's now. */
export const ago = (t: TestApp, ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();
