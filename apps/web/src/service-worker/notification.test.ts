import { describe, expect, it, vi } from 'vitest';
import { monitoringCardPath } from '@pawguard/shared';
import { makeAlert } from '@/testing/devices';
import {
  acknowledgeFromNotification,
  clickTarget,
  notificationFromPush,
  readPushData,
} from './notification';

const DEVICE = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';

/** A push as the server sends it (pushPayloadSchema), with some fields changed. */
const critical = (overrides: Record<string, unknown> = {}) => ({
  title: 'CRITICAL — Biscuit',
  body: '39.4°C (103°F) — heat index 110°F. Cool them now with cool water and call your vet.',
  url: monitoringCardPath(DEVICE),
  tag: 'alert-42',
  level: 'CRITICAL',
  alert_id: '42',
  urgent: true,
  ack_token: null,
  test: false,
  ...overrides,
});

describe('a pushed alert as a notification', () => {
  it('names the level and the dog, gives the why, and offers Open and Find a vet', () => {
    const { title, options } = notificationFromPush(critical());
    expect(title).toBe('CRITICAL — Biscuit');
    expect(options.body).toBe(critical().body);
    expect(options.actions).toEqual([
      { action: 'open', title: 'Open' },
      { action: 'vet', title: 'Find a vet' },
    ]);
    expect(options.data).toEqual({ url: `/monitoring#collar-${DEVICE}` });
    expect(options.icon).toBe('/icons/pwa-192.png');
    expect(options.badge).toBe('/icons/badge-96.png');
  });

  it('replaces the alert’s earlier notification and rings again; an urgent one stays until dismissed', () => {
    const { options } = notificationFromPush(critical());
    expect(options).toMatchObject({ tag: 'alert-42', renotify: true, requireInteraction: true });
    const warning = notificationFromPush(
      critical({ title: 'WARNING — Biscuit', level: 'WARNING', urgent: false }),
    );
    expect(warning.options.requireInteraction).toBe(false);
  });

  it('offers only Open for collar news and test pushes, which are not about heat', () => {
    const offline = notificationFromPush(
      critical({ title: 'Collar offline — Biscuit', level: null, urgent: false }),
    );
    expect(offline.options.actions).toEqual([{ action: 'open', title: 'Open' }]);
    const test = notificationFromPush(
      critical({ title: 'Test — PawGuard', level: null, test: true, url: '/notifications' }),
    );
    expect(test.options.actions).toEqual([{ action: 'open', title: 'Open' }]);
  });

  it('never sets renotify without a tag (the browser would refuse the notification)', () => {
    const { options } = notificationFromPush(critical({ tag: '' }));
    expect(options).not.toHaveProperty('renotify');
    expect(options).not.toHaveProperty('tag');
  });

  it('still shows something for a push it cannot read, leading to the app', () => {
    const { title, options } = notificationFromPush({ hello: 'world' });
    expect(title).toBe('PawGuard');
    expect(options.body).toBe('There is news about your dogs. Open PawGuard to see it.');
    expect(options.data).toEqual({ url: '/' });
  });

  it('leads only to a path on this site', () => {
    expect(notificationFromPush(critical({ url: 'https://evil.example/x' })).options.data.url).toBe(
      '/',
    );
    expect(notificationFromPush(critical({ url: '//evil.example/x' })).options.data.url).toBe('/');
  });

  it('reads a push’s data as JSON, and anything else as nothing', () => {
    expect(readPushData({ json: () => ({ a: 1 }) })).toEqual({ a: 1 });
    expect(
      readPushData({
        json: () => {
          throw new SyntaxError('not JSON');
        },
      }),
    ).toBeNull();
    expect(readPushData(null)).toBeNull();
  });
});

describe('a pushed heat alert that can be acknowledged', () => {
  const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.ack.signature';

  it('puts Acknowledge first, beside Find a vet, where a browser shows two actions', () => {
    const { options } = notificationFromPush(critical({ ack_token: TOKEN }), 2);
    expect(options.actions).toEqual([
      { action: 'ack', title: 'Acknowledge' },
      { action: 'vet', title: 'Find a vet' },
    ]);
    // A tap on the notification itself still opens the dog's card; the token waits for the action.
    expect(options.data).toEqual({ url: `/monitoring#collar-${DEVICE}`, ackToken: TOKEN });
    // A browser that does not say how many it shows is taken to show two.
    expect(notificationFromPush(critical({ ack_token: TOKEN })).options.actions).toEqual(
      options.actions,
    );
  });

  it('offers Open, Find a vet and Acknowledge where a browser shows three', () => {
    const { options } = notificationFromPush(critical({ ack_token: TOKEN }), 3);
    expect(options.actions?.map((a) => a.title)).toEqual(['Open', 'Find a vet', 'Acknowledge']);
  });

  it('keeps the server’s words for an alert sent again because nobody acknowledged it', () => {
    const { title, options } = notificationFromPush(
      critical({
        title: 'CRITICAL — Biscuit (not yet acknowledged)',
        body: 'Nobody has acknowledged it yet. 40.6°C. Cool them now with cool water and call your vet.',
        ack_token: TOKEN,
      }),
    );
    expect(title).toBe('CRITICAL — Biscuit (not yet acknowledged)');
    expect(options.body).toMatch(/^Nobody has acknowledged it yet\./);
    expect(options).toMatchObject({ tag: 'alert-42', renotify: true, requireInteraction: true });
    expect(options.actions?.[0]).toEqual({ action: 'ack', title: 'Acknowledge' });
  });

  it('never offers Acknowledge on collar news, whatever the push carries', () => {
    const { options } = notificationFromPush(
      critical({ title: 'Collar offline — Biscuit', level: null, ack_token: TOKEN }),
    );
    expect(options.actions).toEqual([{ action: 'open', title: 'Open' }]);
    expect(options.data).toEqual({ url: `/monitoring#collar-${DEVICE}` });
  });
});

describe('the Acknowledge action', () => {
  const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.ack.signature';
  const data = { url: `/monitoring#collar-${DEVICE}`, ackToken: TOKEN };
  const answer = (status: number, body: unknown) =>
    vi.fn<typeof fetch>(async () =>
      Response.json(body, { status, headers: { 'Content-Type': 'application/json' } }),
    );

  it('sends the token to the server and says quietly that it worked, in the alert’s place', async () => {
    const send = answer(200, {
      alert: makeAlert({ dog_name: 'Biscuit', acknowledged_at: new Date().toISOString() }),
    });
    const { title, options } = await acknowledgeFromNotification(data, 'alert-42', send);
    expect(send).toHaveBeenCalledTimes(1);
    const [path, init] = send.mock.calls[0]!;
    expect(path).toBe('/api/alerts/acknowledge-link');
    expect(init).toMatchObject({ method: 'POST', credentials: 'omit' });
    expect(JSON.parse(String(init!.body))).toEqual({ token: TOKEN });
    expect(title).toBe('Acknowledged — Biscuit');
    expect(options).toMatchObject({
      body: 'PawGuard keeps watching.',
      tag: 'alert-42',
      renotify: false,
      requireInteraction: false,
      data: { url: `/monitoring#collar-${DEVICE}` },
    });
    expect(options.actions ?? []).toEqual([]);
  });

  it('shows the server’s words when the link is no longer valid, and keeps the way to the card', async () => {
    const error =
      'This acknowledge link is not valid or has expired. Open PawGuard to acknowledge the alert.';
    const { title, options } = await acknowledgeFromNotification(
      data,
      'alert-42',
      answer(404, { error }),
    );
    expect(title).toBe('Not acknowledged');
    expect(options).toMatchObject({
      body: error,
      tag: 'alert-42',
      requireInteraction: true,
      data: { url: `/monitoring#collar-${DEVICE}` },
    });
    expect(options.actions).toEqual([{ action: 'open', title: 'Open' }]);
  });

  it('lets the notification go by itself when the alert has already ended', async () => {
    const { options } = await acknowledgeFromNotification(
      data,
      'alert-42',
      answer(409, { error: 'This alert is already resolved' }),
    );
    expect(options.body).toBe('This alert is already resolved');
    expect(options.requireInteraction).toBe(false);
  });

  it('says PawGuard could not be reached when the request fails', async () => {
    const send = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const { title, options } = await acknowledgeFromNotification(data, 'alert-42', send);
    expect(title).toBe('Not acknowledged');
    expect(options.body).toBe(
      'PawGuard could not be reached. Open PawGuard to acknowledge the alert.',
    );
    expect(options.requireInteraction).toBe(true);
  });

  it('asks nothing of the server for a notification without a token', async () => {
    const send = answer(200, {});
    const { title, options } = await acknowledgeFromNotification(
      { url: `/monitoring#collar-${DEVICE}` },
      'alert-42',
      send,
    );
    expect(send).not.toHaveBeenCalled();
    expect(title).toBe('Not acknowledged');
    expect(options.data.url).toBe(`/monitoring#collar-${DEVICE}`);
  });
});

describe('a click on a notification', () => {
  const data = { url: `/monitoring#collar-${DEVICE}` };

  it('opens the dog’s Monitoring card, from the notification or its Open action', () => {
    expect(clickTarget('', data)).toBe(`/monitoring#collar-${DEVICE}`);
    expect(clickTarget('open', data)).toBe(`/monitoring#collar-${DEVICE}`);
  });

  it('opens the emergency vets for Find a vet', () => {
    expect(clickTarget('vet', data)).toBe('/emergency');
  });

  it('opens the app when the notification carries no page', () => {
    expect(clickTarget('', null)).toBe('/');
    expect(clickTarget('open', { url: 'https://elsewhere.example/' })).toBe('/');
  });
});
