import { describe, expect, it } from 'vitest';
import { monitoringCardPath } from '@pawguard/shared';
import { clickTarget, notificationFromPush, readPushData } from './notification';

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
