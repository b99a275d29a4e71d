import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { AUTH_TOKEN_KEY } from '@/lib/auth-token';
import { jsonResponse, makeAdminUser, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { AppProvider } from './provider';
import { AppRoutes, preloadSignedIn } from './router';

const slow = { timeout: 5000 };
const prefs = {
  email_notifications_enabled: true,
  temperature_threshold: 85,
  critical_temperature_threshold: 105,
  email_frequency: 'immediate',
};

/** Where the app is: path and query. */
function Address() {
  const { pathname, search } = useLocation();
  return <output data-testid="address">{`${pathname}${search}`}</output>;
}

function renderApp(route: string | { pathname: string; state: unknown }, routes: Routes = {}) {
  const calls = stubFetch(routes);
  render(
    <MemoryRouter initialEntries={[route]}>
      <AppProvider>
        <AppRoutes />
      </AppProvider>
    </MemoryRouter>,
  );
  return { calls, user: userEvent.setup() };
}

function signedInAs(user: ReturnType<typeof makeUser>, extra: Routes = {}): Routes {
  localStorage.setItem(AUTH_TOKEN_KEY, 'valid-token');
  return {
    'GET /api/auth/profile': () => jsonResponse(200, { user }),
    'GET /api/notifications/preferences': () => jsonResponse(200, { preferences: prefs }),
    ...extra,
  };
}

describe('route table, signed out', () => {
  it("keeps 'Email confirmed' on screen for a visitor who is not signed in", async () => {
    stubFetch({});
    render(
      <MemoryRouter initialEntries={['/?confirmed=1']}>
        <AppProvider>
          <AppRoutes />
          <Address />
        </AppProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Email confirmed', {}, slow)).toBeInTheDocument();
    // Once ?confirmed= is gone from the address, the toast is still there for its time.
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
    expect(screen.getByText('Email confirmed')).toBeInTheDocument();
  });

  it('shows the landing page at a guarded URL, without asking the server anything', async () => {
    const { calls } = renderApp('/monitoring');
    expect(
      await screen.findByRole('heading', { level: 1, name: /Keep your dog safe/ }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Join Waitlist/ })).toHaveLength(2);
    expect(document.getElementById('features')).not.toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('opens the login screen from Login and returns with its back action', async () => {
    const { user } = renderApp('/');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Welcome Back' }, slow)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(
      screen.getByRole('heading', { level: 1, name: /Keep your dog safe/ }),
    ).toBeInTheDocument();
  });

  it('closes a login screen it did not open (a reload) in place, never leaving the site', async () => {
    // A reload keeps the history entry's state: the login screen is open with nothing of
    // ours underneath, so its back action must not step back out of the app.
    const { user } = renderApp({ pathname: '/', state: { loginScreen: true } });
    expect(await screen.findByRole('heading', { name: 'Welcome Back' }, slow)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: /Keep your dog safe/ }),
    ).toBeInTheDocument();
  });

  it('opens the waitlist dialog from either waitlist button', async () => {
    const { user } = renderApp('/');
    await user.click(screen.getAllByRole('button', { name: /Join Waitlist/ })[1]!);
    expect(
      await screen.findByRole('dialog', { name: 'Join the Waitlist' }, slow),
    ).toBeInTheDocument();
  });

  it('shows /emergency to everyone, under the public header with Login', async () => {
    renderApp('/emergency');
    expect(
      await screen.findByRole('heading', { name: 'Emergency Vets' }, slow),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('banner')).getByRole('button', { name: 'Login' }),
    ).toBeInTheDocument();
  });

  it('shows /acknowledge to everyone: an alert mail’s link acknowledges without a sign-in', async () => {
    const { calls } = renderApp('/acknowledge#signed-token', {
      'POST /api/alerts/acknowledge-link': () =>
        jsonResponse(409, { error: 'This alert is already resolved' }),
    });
    expect(
      await screen.findByRole('heading', { name: 'Acknowledge alert' }, slow),
    ).toBeInTheDocument();
    expect(await screen.findByText('This alert is already resolved.', {}, slow)).toBeVisible();
    expect(
      within(screen.getByRole('banner')).getByRole('button', { name: 'Login' }),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/api/alerts/acknowledge-link')).toHaveLength(1);
  });

  it('shows the 404 page for an unknown path and logs the path', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/no/such/page');
    expect(
      await screen.findByRole('heading', { name: 'Oops! Page not found' }, slow),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Return to Home/ })).toHaveAttribute('href', '/');
    // Logged by the page's effect, which may run just after its heading is on screen.
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.any(String), '/no/such/page'));
  });
});

describe('session', () => {
  it('restores a stored session and shows the user dashboard with the signed-in header', async () => {
    const riley = makeUser({ name: 'Riley' });
    const { calls } = renderApp('/', signedInAs(riley));
    expect(
      await screen.findByRole('heading', { name: 'Welcome, Riley' }, slow),
    ).toBeInTheDocument();
    expect(calls[0]?.init.headers).toMatchObject({ Authorization: 'Bearer valid-token' });

    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Dashboard', 'My Pets', 'Monitoring', 'Devices', 'Notifications']);
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect((await screen.findAllByText('Enabled', {}, slow)).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Welcome, Riley').length).toBeGreaterThan(0);
    const footer = screen.getByRole('contentinfo');
    expect(
      within(footer)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/safety', '/emergency', '/support']);
  });

  it('marks Monitoring as the current page on a device’s history, whose address is under /devices', async () => {
    renderApp('/devices/d-1/history', signedInAs(makeUser({ name: 'Riley' })));
    const nav = (await screen.findAllByRole('navigation', { name: 'Main' }, slow))[0]!;
    expect(within(nav).getByRole('link', { name: 'Monitoring' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('link', { name: 'Devices' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('link', { name: 'Devices' })).toHaveAttribute('href', '/devices');
  });

  it('starts a returning owner’s first requests before the app asks, and makes each once', async () => {
    const riley = makeUser({ name: 'Riley' });
    const calls = stubFetch({
      ...signedInAs(riley),
      'GET /api/notifications/unread-count': () => jsonResponse(200, { count: 0 }),
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
      'GET /api/alerts?resolved=false&limit=100': () => jsonResponse(200, { alerts: [], total: 0 }),
    });
    // As the entry module does for a visitor with a stored token, before React renders.
    preloadSignedIn('/', 'valid-token');
    const early = [
      'GET /api/auth/profile',
      'GET /api/notifications/unread-count',
      'GET /api/notifications/preferences',
      'GET /api/dogs',
      'GET /api/devices',
      'GET /api/alerts?resolved=false&limit=100',
    ];
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(early);

    render(
      <MemoryRouter initialEntries={['/']}>
        <AppProvider>
          <AppRoutes />
        </AppProvider>
      </MemoryRouter>,
    );
    expect(
      await screen.findByText(/Add your dog and put a collar on them/, {}, slow),
    ).toBeInTheDocument();
    expect((await screen.findAllByText('Enabled', {}, slow)).length).toBeGreaterThan(0);
    const made = calls.map((c) => `${c.method} ${c.url}`);
    for (const request of early) expect(made.filter((m) => m === request)).toHaveLength(1);
  });

  it('drops a stored token the server no longer accepts and shows the landing page', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'stale');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/', {
      'GET /api/auth/profile': () => jsonResponse(401, { error: 'Invalid token' }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: /Keep your dog safe/ }, slow),
    ).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("says 'Authentication Required' when the session ends while a guarded screen is open", async () => {
    const riley = makeUser({ name: 'Riley' });
    renderApp(
      '/monitoring',
      signedInAs(riley, {
        'GET /api/notifications/preferences': () => jsonResponse(401, { error: 'Session ended' }),
      }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Authentication Required' }, slow),
    ).toBeInTheDocument();
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('logs out through the server, then forgets the token', async () => {
    const riley = makeUser({ name: 'Riley' });
    const { calls, user } = renderApp(
      '/',
      signedInAs(riley, { 'POST /api/auth/logout': () => jsonResponse(200, { success: true }) }),
    );
    await screen.findByRole('heading', { name: 'Welcome, Riley' }, slow);
    await user.click(screen.getAllByRole('button', { name: 'Logout' })[0]!);
    expect(
      await screen.findByRole('heading', { level: 1, name: /Keep your dog safe/ }, slow),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/auth/logout')).toBe(true);
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });
});

describe('roles', () => {
  it('shows an admin the Admin Dashboard with platform figures', async () => {
    const admin = makeAdminUser({ name: 'Alex', role: 'admin' });
    const owner = makeAdminUser({ name: 'Riley', role: 'user', dogs_count: 2 });
    const idle = makeAdminUser({ name: 'Sam', role: 'user', dogs_count: 0 });
    renderApp(
      '/',
      signedInAs(admin, {
        'GET /api/auth/users': () =>
          jsonResponse(200, {
            users: [admin, owner, idle],
            total: 3,
            admin_count: 1,
            active_count: 1,
          }),
        'GET /api/dogs/all?limit=1': () => jsonResponse(200, { dogs: [], total: 0 }),
      }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Admin Dashboard' }, slow),
    ).toBeInTheDocument();
    const stats = screen.getByRole('list', { name: 'Platform statistics' });
    expect(await within(stats).findByText('1 admin · 2 users', {}, slow)).toBeInTheDocument();
    expect(within(stats).getByText('Healthy')).toBeInTheDocument();
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Dashboard', 'Admin Portal', 'All Devices']);
  });

  it('denies a user the Admin Portal and loads no admin data', async () => {
    const riley = makeUser({ name: 'Riley', role: 'user' });
    const { calls } = renderApp('/admin', signedInAs(riley));
    expect(await screen.findByRole('heading', { name: 'Access Denied' }, slow)).toBeInTheDocument();
    expect(calls.map((c) => c.url)).not.toContain('/api/auth/users');
  });
});
