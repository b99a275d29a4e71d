import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { DEFAULT_PUSH_SETTINGS } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { PushNotificationsCard } from './push-notifications-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

// A P-256 public key is 65 bytes: 0x04, then x and y.
const KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i));
const PUBLIC_KEY = btoa(String.fromCharCode(...KEY_BYTES))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '');

const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/this-browser';
const SUBSCRIPTION_JSON = {
  endpoint: ENDPOINT,
  expirationTime: null,
  keys: { p256dh: `B${'x'.repeat(86)}`, auth: 'a'.repeat(22) },
};

type Permission = NotificationPermission;

/**
 * A browser that can take pushes: Notification with its permission, a service worker
 * registration and its PushManager. `subscribed` starts with a subscription already made.
 */
function pushBrowser({
  permission = 'default' as Permission,
  answer = 'granted' as Permission,
  subscribed = false,
  subscribeFails = false,
} = {}) {
  const subscription = {
    endpoint: ENDPOINT,
    options: { applicationServerKey: KEY_BYTES.buffer },
    toJSON: () => SUBSCRIPTION_JSON,
    unsubscribe: vi.fn(async () => {
      current = null;
      return true;
    }),
  };
  let current: typeof subscription | null = subscribed ? subscription : null;
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (_options: PushSubscriptionOptionsInit) => {
      if (subscribeFails) throw new DOMException('push service error', 'AbortError');
      current = subscription;
      return subscription;
    }),
  };
  const registration = { active: {}, pushManager };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: vi.fn(async () => registration),
      register: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
    },
  });
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  return { notification, pushManager, subscription };
}

function onDevice(userAgent: string, { homeScreen = false } = {}) {
  Object.defineProperty(navigator, 'userAgent', { configurable: true, value: userAgent });
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) =>
      ({
        matches: homeScreen && query === '(display-mode: standalone)',
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

afterEach(() => {
  // Own properties over the prototype's getters: removing them gives jsdom's back.
  Reflect.deleteProperty(navigator, 'serviceWorker');
  Reflect.deleteProperty(navigator, 'userAgent');
});

/** The push API, with each answer overridable; every call recorded. */
function pushApi(overrides: Routes = {}) {
  return stubFetch({
    'GET /api/push/public-key': () => jsonResponse(200, { public_key: PUBLIC_KEY }),
    'GET /api/push/settings': () => jsonResponse(200, { settings: DEFAULT_PUSH_SETTINGS }),
    'GET /api/push/subscriptions': () => jsonResponse(200, { subscriptions: [] }),
    'POST /api/push/subscriptions': () =>
      jsonResponse(201, {
        subscription: {
          id: 'sub-1',
          endpoint_host: 'fcm.googleapis.com',
          created_at: '2026-06-01T10:00:00.000Z',
        },
      }),
    'DELETE /api/push/subscriptions': () => jsonResponse(200, { success: true }),
    'PUT /api/push/settings': (init) =>
      jsonResponse(200, { settings: JSON.parse(String(init.body)) }),
    'POST /api/push/test': () =>
      jsonResponse(200, { success: true, sent: 1, message: 'Test push sent to your browser.' }),
    ...overrides,
  });
}

const renderCard = () =>
  renderWithProviders(<PushNotificationsCard />, { auth: fakeAuth(makeUser()) });

const card = () => within(screen.getByRole('region', { name: 'Push notifications' }));

describe('Push notifications card', () => {
  it('says plainly when this browser cannot take pushes, and offers no button', async () => {
    pushApi();
    renderCard();
    expect(
      await screen.findByText(/This browser cannot receive push notifications/),
    ).toBeInTheDocument();
    expect(card().queryByRole('button', { name: 'Enable on this device' })).toBeNull();
    // Which alerts push is the account's, for its other browsers: still there.
    expect(await card().findByLabelText('Push alerts at')).toBeEnabled();
  });

  it('tells an iPhone user in Safari how to add PawGuard to the home screen', async () => {
    pushApi();
    onDevice(IPHONE_SAFARI);
    renderCard();
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent(/once it is on your home screen/);
    expect(
      within(note)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'In Safari, tap Share.',
      'Tap Add to Home Screen.',
      'Open PawGuard from the home screen and turn push notifications on there.',
    ]);
    expect(card().queryByRole('button', { name: 'Enable on this device' })).toBeNull();
  });

  it('offers push on an iPhone where PawGuard was opened from the home screen', async () => {
    pushApi();
    onDevice(IPHONE_SAFARI, { homeScreen: true });
    pushBrowser();
    renderCard();
    expect(
      await card().findByRole('button', { name: 'Enable on this device' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Add to Home Screen/)).toBeNull();
  });

  it('asks for permission only on the click, then subscribes with the server key and sends the subscription', async () => {
    const calls = pushApi();
    const browser = pushBrowser();
    renderCard();
    const enable = await card().findByRole('button', { name: 'Enable on this device' });
    expect(card().getByText('Off for this device.')).toBeInTheDocument();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();

    await userEvent.setup().click(enable);

    expect(await card().findByText('On for this device')).toBeInTheDocument();
    expect(browser.notification.requestPermission).toHaveBeenCalledTimes(1);
    const options = browser.pushManager.subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    expect([...(options.applicationServerKey as Uint8Array)]).toEqual([...KEY_BYTES]);
    const posted = calls.filter((c) => c.method === 'POST' && c.url === '/api/push/subscriptions');
    expect(posted).toHaveLength(1);
    expect(JSON.parse(String(posted[0]!.init.body))).toEqual(SUBSCRIPTION_JSON);
    expect(toast.success).toHaveBeenCalledWith('Success', {
      description: 'Push notifications are on for this device',
    });
    expect(card().getByRole('button', { name: 'Send test push' })).toBeInTheDocument();
    expect(card().getByRole('button', { name: 'Turn off on this device' })).toBeInTheDocument();
  });

  it('says how to allow notifications when the person blocks them at the prompt', async () => {
    const calls = pushApi();
    const browser = pushBrowser({ answer: 'denied' });
    renderCard();
    await userEvent
      .setup()
      .click(await card().findByRole('button', { name: 'Enable on this device' }));

    expect(
      await card().findByText(/Notifications are blocked for PawGuard in this browser/),
    ).toHaveTextContent(/set Notifications to Allow, then reload this page/);
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(card().queryByRole('button', { name: 'Enable on this device' })).toBeNull();
  });

  it('shows the blocked state at once when notifications were blocked before', async () => {
    pushApi();
    pushBrowser({ permission: 'denied' });
    renderCard();
    expect(
      await card().findByText(/Notifications are blocked for PawGuard in this browser/),
    ).toBeInTheDocument();
    expect(card().queryByRole('button', { name: 'Enable on this device' })).toBeNull();
  });

  it('stays off and says why when the server refuses the subscription', async () => {
    pushApi({
      'POST /api/push/subscriptions': () =>
        jsonResponse(400, { error: 'endpoint must be an https address of a public push service' }),
    });
    const browser = pushBrowser();
    renderCard();
    await userEvent
      .setup()
      .click(await card().findByRole('button', { name: 'Enable on this device' }));

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description: 'endpoint must be an https address of a public push service',
      }),
    );
    expect(card().getByText('Off for this device.')).toBeInTheDocument();
    // The subscription the server refused is not left behind to look like push is on.
    expect(browser.subscription.unsubscribe).toHaveBeenCalled();
  });

  it('says when the push service cannot be reached', async () => {
    const calls = pushApi();
    pushBrowser({ subscribeFails: true });
    renderCard();
    await userEvent
      .setup()
      .click(await card().findByRole('button', { name: 'Enable on this device' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description:
          'This browser’s push service could not be reached. Check your connection and try again.',
      }),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('finds push already on, sends the subscription again without asking, and turns it off', async () => {
    const calls = pushApi();
    const browser = pushBrowser({ permission: 'granted', subscribed: true });
    renderCard();
    expect(await card().findByText('On for this device')).toBeInTheDocument();
    expect(browser.notification.requestPermission).not.toHaveBeenCalled();
    expect(
      calls.filter((c) => c.method === 'POST' && c.url === '/api/push/subscriptions'),
    ).toHaveLength(1);

    await userEvent.setup().click(card().getByRole('button', { name: 'Turn off on this device' }));

    expect(await card().findByText('Off for this device.')).toBeInTheDocument();
    const deleted = calls.find((c) => c.method === 'DELETE');
    expect(JSON.parse(String(deleted?.init.body))).toEqual({ endpoint: ENDPOINT });
    expect(browser.subscription.unsubscribe).toHaveBeenCalled();
    expect(toast.success).toHaveBeenCalledWith('Success', {
      description: 'Push notifications are off for this device',
    });
  });

  it('sends a test push and shows the server’s answer', async () => {
    const calls = pushApi();
    pushBrowser({ permission: 'granted', subscribed: true });
    renderCard();
    await userEvent.setup().click(await card().findByRole('button', { name: 'Send test push' }));

    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Test Push Sent', {
        description: 'Test push sent to your browser.',
      }),
    );
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/api/push/test')).toHaveLength(1);
  });

  it('shows a test push the server could not deliver as a failure', async () => {
    pushApi({
      'POST /api/push/test': () =>
        jsonResponse(200, {
          success: false,
          sent: 0,
          message: 'The push service could not be reached. Please try again in a few minutes.',
        }),
    });
    pushBrowser({ permission: 'granted', subscribed: true });
    renderCard();
    await userEvent.setup().click(await card().findByRole('button', { name: 'Send test push' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Test Failed', {
        description: 'The push service could not be reached. Please try again in a few minutes.',
      }),
    );
  });
});

describe('Which alerts push', () => {
  it('starts from the saved settings and saves the level and the collar news chosen', async () => {
    const calls = pushApi({
      'GET /api/push/settings': () =>
        jsonResponse(200, { settings: { min_level: 'DANGER', offline: true, low_battery: false } }),
    });
    renderCard();
    const level = await card().findByLabelText('Push alerts at');
    await vi.waitFor(() => expect(level).toBeEnabled());
    expect(level).toHaveValue('DANGER');
    expect(card().getByRole('switch', { name: 'Collar offline' })).toHaveAttribute(
      'aria-checked',
      'true',
    );

    const user = userEvent.setup();
    await user.selectOptions(level, 'Critical only');
    expect(
      card().getByText(
        'Only Critical heat alerts push to you; the others stay in the app and e-mail.',
      ),
    ).toBeInTheDocument();
    await user.click(card().getByRole('switch', { name: 'Low battery' }));
    await user.click(card().getByRole('button', { name: 'Save push settings' }));

    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Success', { description: 'Push settings saved' }),
    );
    const put = calls.find((c) => c.method === 'PUT' && c.url === '/api/push/settings');
    expect(JSON.parse(String(put?.init.body))).toEqual({
      min_level: 'CRITICAL',
      offline: true,
      low_battery: true,
    });
  });

  it('defaults to Warning and above with collar news off', async () => {
    pushApi();
    renderCard();
    const level = await card().findByLabelText('Push alerts at');
    await vi.waitFor(() => expect(level).toBeEnabled());
    expect(level).toHaveValue('WARNING');
    expect(card().getByRole('switch', { name: 'Collar offline' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    expect(card().getByRole('switch', { name: 'Low battery' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
  });

  it('says so when saving fails', async () => {
    pushApi({
      'PUT /api/push/settings': () => jsonResponse(500, { error: 'Internal Server Error' }),
    });
    renderCard();
    const save = await card().findByRole('button', { name: 'Save push settings' });
    await vi.waitFor(() => expect(save).toBeEnabled());
    await userEvent.setup().click(save);
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description: 'Failed to save push settings',
      }),
    );
  });

  it('cannot be saved while the saved settings are not known', async () => {
    pushApi({
      'GET /api/push/settings': () => jsonResponse(500, { error: 'Internal Server Error' }),
    });
    renderCard();
    expect(
      await card().findByText('Your push settings could not be loaded just now.'),
    ).toBeInTheDocument();
    expect(card().getByRole('button', { name: 'Save push settings' })).toBeDisabled();
    expect(card().getByLabelText('Push alerts at')).toBeDisabled();
  });
});
