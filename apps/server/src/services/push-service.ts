import {
  PUSH_SUBSCRIPTIONS_PER_USER,
  type PushSettings,
  type PushSubscriptionInput,
  type PushSubscriptionView,
} from '@pawguard/shared';
import type { PushRepository, PushSubscriptionRow } from '../repositories/push-repository.js';
import { checkPushEndpoint, type Lookup } from './push-endpoint.js';
import type { Clock } from './clock.js';

/** A subscription as its owner sees it: the push service's host, never the keys or the path. */
const view = (row: PushSubscriptionRow): PushSubscriptionView => ({
  id: row.id,
  endpoint_host: new URL(row.endpoint).host,
  created_at: row.created_at,
});

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
    await checkPushEndpoint(input.endpoint, {
      allowPrivate: this.d.allowPrivate,
      ...(this.d.lookup ? { lookup: this.d.lookup } : {}),
    });
    const row = await this.d.push.subscribe(
      {
        user_id: userId,
        endpoint: input.endpoint,
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
    await this.d.push.unsubscribe(userId, endpoint);
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
