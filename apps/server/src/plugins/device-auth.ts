import type { FastifyRequest } from 'fastify';
import type { DeviceAuthenticator } from './auth.js';
import type { DeviceKeyCache } from '../services/device-key-cache.js';
import { LogSampler } from '../services/log-sampler.js';

/** A device key as we issue it: base64url, 43 characters (some slack for future formats). */
const DEVICE_HEADER = /^Device ([A-Za-z0-9_-]{20,200})$/;

/**
 * Collars authenticate with `Authorization: Device <key>`. Only the header counts: a key in
 * the path or query string is never read, so it never needs to appear in a URL (or a log).
 */
/** At most this many refusal lines a minute; the rest are counted in the next line. */
const REJECTION_LOGS_PER_MINUTE = 30;

export function deviceKeyAuthenticator(keys: DeviceKeyCache): DeviceAuthenticator {
  const rejections = new LogSampler(REJECTION_LOGS_PER_MINUTE);
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? DEVICE_HEADER.exec(header.trim()) : null;
    if (!match) return null;
    const principal = await keys.authenticate(match[1]!);
    if (!principal) {
      // Warn level, so routes on the hot path (quiet at info) still record refusals; a flood
      // is summarised rather than logged line by line.
      if (rejections.take()) {
        request.log.warn(
          { event: 'device.auth', outcome: 'failure', suppressed: rejections.skipped },
          'device key rejected',
        );
      }
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
