import type https from 'node:https';
import webpush, { WebPushError } from 'web-push';
import {
  checkPushEndpoint,
  PushEndpointError,
  publicOnlyAgent,
  type Lookup,
} from './push-endpoint.js';
import { deadline } from './deadline.js';

/** A browser to push to: its push service's endpoint and the keys its payload is encrypted to. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushDelivery {
  /** The JSON the service worker receives (pushPayloadSchema), encrypted for the browser. */
  payload: string;
  /** DANGER and CRITICAL: urgency `high`, so a phone in power saving is woken for it. */
  urgent: boolean;
  /** How long the push service keeps it for a phone that is off, in seconds. */
  ttlSeconds: number;
  /** Replaces a push of the same topic still waiting at the push service (an escalation). */
  topic?: string;
}

/** How long one push may take, connection and answer included. */
export const PUSH_SEND_TIMEOUT_MS = 10_000;

/**
 * What a failed push says about the browser:
 * - `gone`: the push service no longer knows it (404, 410): its subscription is deleted;
 * - `refused`: the push service refused this push (another 4xx but 429, a redirect, which is
 *   never followed, or an endpoint that may not be called): final;
 * - `unavailable`: no answer, a timeout, 429 or 5xx: retried with backoff.
 */
export type PushFailure = 'gone' | 'refused' | 'unavailable';

export function classifyPushFailure(err: unknown): PushFailure {
  const status = err instanceof WebPushError ? err.statusCode : undefined;
  if (status === 404 || status === 410) return 'gone';
  if (status !== undefined && status !== 429 && status >= 300 && status < 500) return 'refused';
  // The endpoint may not be called (policy), or resolves to an address it may not: final. A
  // host that could not be looked up just now is an outage like any other.
  if (err instanceof PushEndpointError) return err.reason === 'policy' ? 'refused' : 'unavailable';
  if ((err as { code?: string } | null)?.code === 'EPUSHADDRESS') return 'refused';
  return 'unavailable';
}

/** A failure in words for the logs and the outbox row: never the endpoint's path or the keys. */
export function pushFailureWords(err: unknown): string {
  if (err instanceof WebPushError)
    return `the push service answered ${err.statusCode}${err.body ? `: ${err.body.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`;
  return ((err as Error)?.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 300);
}

/**
 * Sends Web Push messages (RFC 8030) signed with the server's VAPID keys (RFC 8292) and
 * encrypted for the browser (RFC 8291, aes128gcm), through `web-push`. Every send checks the
 * endpoint again (PUSH-1): https, and an address the connection may call (publicOnlyAgent);
 * no redirect is followed (an answer other than 2xx is a failure), and one push takes at most
 * PUSH_SEND_TIMEOUT_MS.
 */
export class PushSender {
  private readonly agent: https.Agent;

  constructor(
    private readonly d: {
      vapid: { publicKey: string; privateKey: string };
      subject: string;
      allowPrivate: boolean;
      lookup?: Lookup;
    },
  ) {
    this.agent = publicOnlyAgent(d.allowPrivate, d.lookup);
  }

  get publicKey(): string {
    return this.d.vapid.publicKey;
  }

  async send(target: PushTarget, push: PushDelivery): Promise<void> {
    const limit = deadline(PUSH_SEND_TIMEOUT_MS, 'the push service did not answer in time');
    const check = () =>
      checkPushEndpoint(target.endpoint, {
        allowPrivate: this.d.allowPrivate,
        ...(this.d.lookup ? { lookup: this.d.lookup } : {}),
      });
    try {
      const url = await Promise.race([check(), limit.promise]);
      await Promise.race([
        // The URL as checked (normalised), never the text as stored.
        webpush.sendNotification({ ...target, endpoint: url.href }, push.payload, {
          vapidDetails: { subject: this.d.subject, ...this.d.vapid },
          TTL: push.ttlSeconds,
          urgency: push.urgent ? 'high' : 'normal',
          ...(push.topic ? { topic: push.topic } : {}),
          contentEncoding: 'aes128gcm',
          agent: this.agent,
          timeout: PUSH_SEND_TIMEOUT_MS,
        }),
        limit.promise,
      ]);
    } finally {
      limit.cancel();
    }
  }

  close(): void {
    this.agent.destroy();
  }
}
