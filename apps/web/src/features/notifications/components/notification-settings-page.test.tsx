import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { DEFAULT_PUSH_SETTINGS } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { NotificationSettingsPage } from './notification-settings-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn(), warning: vi.fn() } }));

const saved = {
  email_notifications_enabled: true,
  temperature_threshold: 88.5,
  critical_temperature_threshold: 104,
  email_frequency: 'hourly',
};
const PREFS = 'GET /api/notifications/preferences';

/**
 * The other cards' own calls, answered as the server does for someone who never set push up
 * and has no pets yet.
 */
const PUSH: Routes = {
  'GET /api/push/settings': () => jsonResponse(200, { settings: DEFAULT_PUSH_SETTINGS }),
  'GET /api/push/public-key': () => jsonResponse(200, { public_key: 'BPk' }),
  'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
};

function setup(routes: Routes) {
  const calls = stubFetch({ ...PUSH, ...routes });
  renderWithProviders(<NotificationSettingsPage />, { auth: fakeAuth(makeUser()) });
  return { calls, user: userEvent.setup() };
}
const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
/** A regular expression that matches `text` as it is. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const loaded = () => screen.findByRole('heading', { name: 'Email Notifications' });

beforeEach(() => {
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
});

describe('Notification settings', () => {
  it("shows 'Loading notification settings...', then both cards filled from the server", async () => {
    setup({ [PREFS]: () => jsonResponse(200, { preferences: saved }) });
    expect(screen.getByText('Loading notification settings...')).toBeInTheDocument();
    await loaded();
    expect(screen.getByRole('heading', { name: 'Temperature Alerts' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Email alerts' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(screen.getByLabelText('Email frequency')).toHaveValue('hourly');
    expect(screen.getByText('Receive a summary of alerts every hour')).toBeInTheDocument();
    const warning = screen.getByLabelText('Warning temperature (°F)');
    expect(warning).toHaveValue(88.5);
    for (const [attr, v] of [
      ['min', '70'],
      ['max', '120'],
      ['step', '0.1'],
    ] as const)
      expect(warning).toHaveAttribute(attr, v);
    expect(screen.getByLabelText('Critical temperature (°F)')).toHaveValue(104);
    const guide = screen.getByRole('note', { name: 'Temperature guidelines' });
    expect(guide).toHaveTextContent('Normal pet temperature: 100-102.5°F');
    expect(guide).toHaveTextContent('Warning threshold: 85-95°F (environmental heat)');
    expect(guide).toHaveTextContent('Critical threshold: 105°F+ (immediate danger)');
  });

  it('puts the Push notifications card below the spec’s cards, and If nobody acknowledges under it', async () => {
    setup({ [PREFS]: () => jsonResponse(200, { preferences: saved }) });
    await loaded();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Email Notifications',
      'Temperature Alerts',
      'Push notifications',
      'If nobody acknowledges',
      'Units and time',
    ]);
  });

  it('disables the frequency and the test e-mail while e-mails are off; the hints follow the choice', async () => {
    const { user } = setup({ [PREFS]: () => jsonResponse(200, { preferences: saved }) });
    await loaded();
    await user.selectOptions(screen.getByLabelText('Email frequency'), 'immediate');
    expect(screen.getByText('Get alerts as soon as they occur')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Email frequency'), 'daily');
    expect(screen.getByText('Receive a daily summary of all alerts')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Email alerts' }));
    expect(screen.getByLabelText('Email frequency')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send Test Email' })).toBeDisabled();
  });

  it('on a failed load: the destructive toast, the defaults left in place, loading over', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({ [PREFS]: () => jsonResponse(500, { error: 'boom' }) });
    await loaded();
    expect(toast.error).toHaveBeenCalledWith('Error', {
      description: 'Failed to load notification preferences',
    });
    expect(screen.getByLabelText('Warning temperature (°F)')).toHaveValue(85);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('after a failed load, never saves the defaults over the saved settings; Try Again loads them', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const { calls, user } = setup({
      [PREFS]: () =>
        fail ? jsonResponse(503, { error: 'down' }) : jsonResponse(200, { preferences: saved }),
      'PUT /api/notifications/preferences': () => jsonResponse(200, { preferences: saved }),
    });
    await loaded();
    const notice = screen.getByRole('alert');
    expect(notice).toHaveTextContent(
      'Your saved settings could not be loaded, so they cannot be saved over: the values below are the defaults, not yours.',
    );
    // Above the fields, where it is read before them.
    expect(
      notice.compareDocumentPosition(screen.getByLabelText('Warning temperature (°F)')) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save Settings' });
    expect(save).toBeDisabled();
    await user.type(screen.getByLabelText('Warning temperature (°F)'), '{Enter}');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Warning temperature (°F)')).toHaveValue(88.5),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(save).toBeEnabled();
    vi.mocked(console.error).mockRestore();
  });

  it('saves the four fields with decimals, showing Saving... and the success toast', async () => {
    let release!: () => void;
    const { calls, user } = setup({
      [PREFS]: () => jsonResponse(200, { preferences: saved }),
      'PUT /api/notifications/preferences': () =>
        new Promise((r) => (release = () => r(jsonResponse(200, { preferences: saved })))),
    });
    await loaded();
    const warning = screen.getByLabelText('Warning temperature (°F)');
    await user.clear(warning);
    await user.type(warning, '90.7');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    release();
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Success', {
        description: 'Notification preferences updated successfully',
      }),
    );
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(bodyOf(put.init)).toEqual({
      email_notifications_enabled: true,
      email_frequency: 'hourly',
      temperature_threshold: 90.7,
      critical_temperature_threshold: 104,
    });
  });

  it('a failed save shows its toast', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = setup({
      [PREFS]: () => jsonResponse(200, { preferences: saved }),
      'PUT /api/notifications/preferences': () => jsonResponse(500, { error: 'down' }),
    });
    await loaded();
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description: 'Failed to save notification preferences',
      }),
    );
  });

  describe('a threshold outside 70–120 °F or not a number', () => {
    it('is said under its field, the field focused, with the toast, and nothing is sent', async () => {
      const { calls, user } = setup({
        [PREFS]: () => jsonResponse(200, { preferences: saved }),
        'PUT /api/notifications/preferences': () => jsonResponse(200, { preferences: saved }),
      });
      await loaded();
      const warning = screen.getByLabelText('Warning temperature (°F)');
      const critical = screen.getByLabelText('Critical temperature (°F)');
      await user.clear(warning);
      await user.type(warning, '60');
      await user.clear(critical);
      await user.click(screen.getByRole('button', { name: 'Save Settings' }));

      expect(warning).toHaveAccessibleDescription(
        // The error first, then the °C beside the field.
        new RegExp(`^${escape('The warning temperature must be between 70 and 120 °F.')}`),
      );
      expect(warning).toHaveAttribute('aria-invalid', 'true');
      expect(warning).toHaveFocus();
      expect(critical).toHaveAccessibleDescription(
        // The error first, then the °C beside the field.
        new RegExp(`^${escape('Enter the critical temperature as a number of °F, such as 105.')}`),
      );
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description: 'Failed to save notification preferences',
      });
      expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

      // Corrected, the message goes and the save is sent. No check that critical exceeds warning.
      await user.clear(warning);
      await user.type(warning, '110');
      expect(warning).not.toHaveAttribute('aria-invalid');
      await user.type(critical, '90');
      await user.click(screen.getByRole('button', { name: 'Save Settings' }));
      await waitFor(() => expect(toast.success).toHaveBeenCalled());
      expect(bodyOf(calls.find((c) => c.method === 'PUT')!.init)).toMatchObject({
        temperature_threshold: 110,
        critical_temperature_threshold: 90,
      });
      expect(screen.queryByText(/must be between/)).not.toBeInTheDocument();
    });

    it('refused by the server all the same, is said under the field it names', async () => {
      vi.spyOn(console, 'error').mockImplementation(() => {});
      const { user } = setup({
        [PREFS]: () => jsonResponse(200, { preferences: saved }),
        'PUT /api/notifications/preferences': () =>
          jsonResponse(400, {
            error: 'critical_temperature_threshold must be between 70 and 120 °F',
          }),
      });
      await loaded();
      await user.click(screen.getByRole('button', { name: 'Save Settings' }));
      const critical = screen.getByLabelText('Critical temperature (°F)');
      await waitFor(() =>
        expect(critical).toHaveAccessibleDescription(
          // The error first, then the °C beside the field.
          new RegExp(`^${escape('The critical temperature must be between 70 and 120 °F.')}`),
        ),
      );
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description: 'Failed to save notification preferences',
      });
    });
  });

  describe('Send Test Email', () => {
    const TEST = 'POST /api/notifications/test-email';
    const run = async (answer: () => Response | Promise<Response>) => {
      const { calls, user } = setup({
        [PREFS]: () => jsonResponse(200, { preferences: saved }),
        [TEST]: answer,
      });
      await loaded();
      await user.click(screen.getByRole('button', { name: 'Send Test Email' }));
      return calls;
    };

    it("sends the test pet at 90 °F, shows Sending..., then 'Test Email Sent' with the message", async () => {
      let release!: () => void;
      const calls = await run(
        () =>
          new Promise(
            (r) =>
              (release = () => r(jsonResponse(200, { success: true, message: 'Sent to you' }))),
          ),
      );
      expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
      // Saving is a separate busy state.
      expect(screen.getByRole('button', { name: 'Save Settings' })).toBeEnabled();
      release();
      await waitFor(() =>
        expect(toast.success).toHaveBeenCalledWith('Test Email Sent', {
          description: 'Sent to you',
        }),
      );
      expect(bodyOf(calls.find((c) => c.method === 'POST')!.init)).toEqual({
        petName: 'Test Pet',
        temperature: 90,
      });
    });

    it("a test email the server kept undelivered keeps the title 'Test Email Sent' but warns, with the server's words", async () => {
      const words =
        'Your test e-mail to you was prepared, but this PawGuard service cannot deliver e-mail at the moment. Please ask your PawGuard administrator.';
      await run(() => jsonResponse(200, { success: true, delivered: false, message: words }));
      await waitFor(() =>
        expect(toast.warning).toHaveBeenCalledWith('Test Email Sent', { description: words }),
      );
      expect(toast.success).not.toHaveBeenCalled();
    });

    it("success false gives the destructive 'Test Failed' with the message", async () => {
      await run(() => jsonResponse(200, { success: false, message: 'Mail server down' }));
      await waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith('Test Failed', {
          description: 'Mail server down',
        }),
      );
    });

    it("an error answer gives 'Error' with its text", async () => {
      await run(() => jsonResponse(429, { error: 'Too many test emails.' }));
      await waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Too many test emails.' }),
      );
    });

    it("a call that fails outright gives 'Error' / 'Failed to send test email'", async () => {
      await run(() => Promise.reject(new TypeError('network')));
      await waitFor(() =>
        expect(toast.error).toHaveBeenCalledWith('Error', {
          description: 'Failed to send test email',
        }),
      );
    });
  });
});

describe('the °C beside each °F threshold', () => {
  it('shows the °C equivalent of each threshold and follows the typing', async () => {
    const { user } = setup({ [PREFS]: () => jsonResponse(200, { preferences: saved }) });
    await loaded();
    const warning = screen.getByLabelText('Warning temperature (°F)');
    // The inputs stay the spec's °F ones; the °C is beside them, and describes them.
    expect(warning).toHaveAttribute('min', '70');
    expect(screen.getByTestId('temperature_threshold-celsius')).toHaveTextContent('= 31.4°C');
    expect(screen.getByTestId('critical_temperature_threshold-celsius')).toHaveTextContent(
      '= 40.0°C',
    );
    expect(warning).toHaveAccessibleDescription('= 31.4°C');
    await user.clear(warning);
    expect(screen.getByTestId('temperature_threshold-celsius')).toHaveTextContent('');
    await user.type(warning, '9');
    expect(screen.getByTestId('temperature_threshold-celsius')).toHaveTextContent('= -12.8°C');
    await user.type(warning, '0');
    expect(screen.getByTestId('temperature_threshold-celsius')).toHaveTextContent('= 32.2°C');
    await user.type(warning, '.5');
    expect(screen.getByTestId('temperature_threshold-celsius')).toHaveTextContent('= 32.5°C');
  });
});

describe('Units and time', () => {
  function setupUnits(savePreferences: ReturnType<typeof vi.fn>) {
    stubFetch({ [PREFS]: () => jsonResponse(200, { preferences: saved }) });
    renderWithProviders(<NotificationSettingsPage />, {
      auth: fakeAuth(
        makeUser({ temperature_unit: 'F', weight_unit: 'lbs', time_zone: 'America/Chicago' }),
        { savePreferences: savePreferences as never },
      ),
    });
    return userEvent.setup();
  }

  it("starts from the account's choices and saves new ones with a toast", async () => {
    const savePreferences = vi.fn(async (input: object) => makeUser(input));
    const user = setupUnits(savePreferences);
    const card = within(await screen.findByRole('form', { name: 'Units and time' }));
    expect(card.getByRole('radio', { name: '°F first' })).toBeChecked();
    expect(card.getByRole('radio', { name: 'lbs' })).toBeChecked();
    expect(card.getByLabelText('Time zone')).toHaveValue('America/Chicago');
    expect(card.getByText(/For example: 88\.2°F \/ 31\.2°C/)).toBeInTheDocument();
    // From the keyboard: arrow keys move within a radio group.
    card.getByRole('radio', { name: '°F first' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(card.getByRole('radio', { name: '°C first' })).toBeChecked();
    await user.click(card.getByRole('radio', { name: 'kg' }));
    await user.selectOptions(card.getByLabelText('Time zone'), 'Europe/Berlin');
    expect(
      card.getByText(/For example: 31\.2°C \/ 88\.2°F · 22\.7 kg \(50 lbs\)/),
    ).toBeInTheDocument();
    await user.click(card.getByRole('button', { name: 'Save units and time' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Success', {
        description: 'Units and time zone saved',
      }),
    );
    expect(savePreferences).toHaveBeenCalledWith({
      temperature_unit: 'C',
      weight_unit: 'kg',
      time_zone: 'Europe/Berlin',
    });
  });

  it('says so when the server refuses', async () => {
    const user = setupUnits(vi.fn(async () => Promise.reject(new Error('Request failed'))));
    const card = within(await screen.findByRole('form', { name: 'Units and time' }));
    await user.click(card.getByRole('button', { name: 'Save units and time' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', {
        description: 'Failed to save units and time zone',
      }),
    );
  });
});
