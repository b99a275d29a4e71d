import type { FastifyRequest } from 'fastify';
import type { DeviceAuthenticator } from './auth.js';
import type { DeviceService } from '../services/devices/index.js';

/** A device key as we issue it: base64url, 43 characters (some slack for future formats). */
const DEVICE_HEADER = /^Device ([A-Za-z0-9_-]{20,200})$/;

/**
 * Collars authenticate with `Authorization: Device <key>`. Only the header counts: a key in
 * the path or query string is never read, so it never needs to appear in a URL (or a log).
 */
export function deviceKeyAuthenticator(devices: DeviceService): DeviceAuthenticator {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? DEVICE_HEADER.exec(header.trim()) : null;
    if (!match) return null;
    const principal = await devices.authenticateKey(match[1]!);
    if (!principal) {
      request.log.info({ event: 'device.auth', outcome: 'failure' }, 'device key rejected');
      return null;
    }
    return principal;
  };
}
