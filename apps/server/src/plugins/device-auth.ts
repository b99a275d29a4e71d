import type { FastifyRequest } from 'fastify';
import type { DeviceAuthenticator } from './auth.js';
import type { DeviceKeyCache } from '../services/device-key-cache.js';

/** A device key as we issue it: base64url, 43 characters (some slack for future formats). */
const DEVICE_HEADER = /^Device ([A-Za-z0-9_-]{20,200})$/;

/**
 * Collars authenticate with `Authorization: Device <key>`. Only the header counts: a key in
 * the path or query string is never read, so it never needs to appear in a URL (or a log).
 */
export function deviceKeyAuthenticator(keys: DeviceKeyCache): DeviceAuthenticator {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? DEVICE_HEADER.exec(header.trim()) : null;
    if (!match) return null;
    const principal = await keys.authenticate(match[1]!);
    if (!principal) {
      request.log.info({ event: 'device.auth', outcome: 'failure' }, 'device key rejected');
      return null;
    }
    if (keys.sharedFrom(principal.id, request.ip)) {
      request.log.warn(
        { event: 'device.credential_shared', device: principal.deviceId, outcome: 'suspicious' },
        'one device key used from several addresses within a minute',
      );
    }
    return principal;
  };
}
