import {
  PUSH_SUBSCRIPTIONS_PER_USER,
  type PushSettings,
  type PushSubscriptionInput,
  type PushSubscriptionView,
} from '@pawguard/shared';
import type { PushRepository, PushSubscriptionRow } from '../repositories/push-repository.js';
import { createECDH } from 'node:crypto';
import { checkPushEndpoint, type Lookup } from './push-endpoint.js';
import { BadRequestError } from './errors.js';
import type { Clock } from './clock.js';

/** A subscription as its owner sees it: the push service's host, never the keys or the path. */
const view = (row: PushSubscriptionRow): PushSubscriptionView => ({
  id: row.id,
  endpoint_host: new URL(row.endpoint).host,
  created_at: row.created_at,
});

/**
 * The browser's keys as web-push will use them: `p256dh` an uncompressed P-256 point (65 bytes,
 * 0x04 first, on the curve), `auth` 16 bytes. Checked once here, so that no push to the browser
 * fails later for its keys.
 */
function checkKeys(keys: { p256dh: string; auth: string }): void {
  const point = Buffer.from(keys.p256dh, 'base64url');
  let onCurve = point.length === 65 && point[0] === 4;
  if (onCurve) {
    try {
      const probe = createECDH('prime256v1');
      probe.generateKeys();
      probe.computeSecret(point);
    } catch {
      onCurve = false;
    }
  }
  if (!onCurve) throw new BadRequestError('keys.p256dh is not a valid key');
  if (Buffer.from(keys.auth, 'base64url').length !== 16)
    throw new BadRequestError('keys.auth is not a valid key');
}

/** A person's browsers that take pushes, and which alerts push to them (docs/push.md). */
export class PushService {
  constructor(
    private readonly d: {
      push: PushRepository;
      clock: Clock;
      publicKey: string;
      allowPrivate: boolean;
      lookup?: Lookup;
    },
  ) {}

  get publicKey(): string {
    return this.d.publicKey;
  }

  /** Stores this browser for `userId` once its endpoint passes the SSRF check (PUSH-1). */
  async subscribe(userId: string, input: PushSubscriptionInput): Promise<PushSubscriptionView> {
    const url = await checkPushEndpoint(input.endpoint, {
      allowPrivate: this.d.allowPrivate,
      ...(this.d.lookup ? { lookup: this.d.lookup } : {}),
    });
    checkKeys(input.keys);
    const row = await this.d.push.subscribe(
      {
        user_id: userId,
        // Stored as checked (normalised): the worker reads it as the check did.
        endpoint: url.href,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        created_at: this.d.clock.now().toISOString(),
      },
      PUSH_SUBSCRIPTIONS_PER_USER,
    );
    return view(row);
  }

  /** Ends this browser's pushes; an endpoint not (or no longer) this person's changes nothing. */
  async unsubscribe(userId: string, endpoint: string): Promise<void> {
    let href = endpoint;
    try {
      href = new URL(endpoint).href;
    } catch {
      // Not a URL: nothing stored has it.
    }
    await this.d.push.unsubscribe(userId, href);
  }

  async list(userId: string): Promise<PushSubscriptionView[]> {
    return (await this.d.push.listForUser(userId)).map(view);
  }

  settings(userId: string): Promise<PushSettings> {
    return this.d.push.settings(userId);
  }

  async saveSettings(userId: string, s: PushSettings): Promise<PushSettings> {
    await this.d.push.saveSettings(userId, s, this.d.clock.now().toISOString());
    return this.d.push.settings(userId);
  }
}
