import { StrictMode } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useLocation } from 'react-router';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makeAlert } from '@/testing/devices';
import { AcknowledgePage } from './acknowledge-page';

const LINK_ERROR =
  'This acknowledge link is not valid or has expired. Open PawGuard to acknowledge the alert.';

/** Where the page is, as the address bar shows it. */
function Address() {
  const { pathname, search, hash } = useLocation();
  return <p data-testid="address">{`${pathname}${search}${hash}`}</p>;
}

let tokens = 0;
/** A fresh token per test: the page asks once per token for as long as it is loaded. */
const newToken = () => `eyJhbGciOiJIUzI1NiJ9.test-${++tokens}.signature`;

function open(route: string, answer: Routes[string], { signedIn = false, strict = false } = {}) {
  const calls = stubFetch({ 'POST /api/alerts/acknowledge-link': answer });
  const page = (
    <>
      <AcknowledgePage />
      <Address />
    </>
  );
  renderWithProviders(strict ? <StrictMode>{page}</StrictMode> : page, {
    route,
    auth: fakeAuth(signedIn ? makeUser() : null),
  });
  const posts = () => calls.filter((c) => c.url === '/api/alerts/acknowledge-link');
  return { posts, user: userEvent.setup() };
}

const outcome = () => screen.getByRole('status');

describe('the acknowledge page', () => {
  it('acknowledges the alert of the link as it opens and says what to do, signed out', async () => {
    const token = newToken();
    const alert = makeAlert({
      dog_name: 'Biscuit',
      level: 'CRITICAL',
      acknowledged_at: new Date().toISOString(),
      acknowledged_by_name: 'Riley Owner',
    });
    const { posts } = open(`/acknowledge#${token}`, () => jsonResponse(200, { alert }));
    expect(outcome()).toHaveTextContent('Acknowledging…');

    await waitFor(() =>
      expect(outcome()).toHaveTextContent("You acknowledged Biscuit's Critical heat alert"),
    );
    expect(outcome()).toHaveTextContent(
      'PawGuard keeps watching: if it gets worse, you will be told again.',
    );
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(String(posts()[0]!.init.body))).toEqual({ token });
    // The first aid for Critical, and who acknowledged it.
    expect(
      screen.getByText('Cool first: pour cool water over the body and fan it, now.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('alert-acknowledgement')).toHaveTextContent(
      /^Acknowledged by Riley Owner at /,
    );
    // Signed out, PawGuard opens at its home page.
    expect(screen.getByRole('link', { name: 'Open PawGuard' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
      'href',
      '/emergency',
    );
  });

  it('takes the token out of the address bar at once', async () => {
    open(`/acknowledge#${newToken()}`, () => jsonResponse(200, { alert: makeAlert() }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/acknowledge$/));
    await screen.findByText(/^You acknowledged/);
  });

  it('asks the server once, even when React runs its effects twice', async () => {
    const { posts } = open(
      `/acknowledge#${newToken()}`,
      () => jsonResponse(200, { alert: makeAlert() }),
      { strict: true },
    );
    await screen.findByText("You acknowledged Biscuit's Danger heat alert");
    expect(posts()).toHaveLength(1);
  });

  it('opens the Monitoring screen from Open PawGuard when signed in', async () => {
    open(`/acknowledge#${newToken()}`, () => jsonResponse(200, { alert: makeAlert() }), {
      signedIn: true,
    });
    await screen.findByText(/^You acknowledged/);
    expect(screen.getByRole('link', { name: 'Open PawGuard' })).toHaveAttribute(
      'href',
      '/monitoring',
    );
  });

  it('says the server’s words for a link that is not valid or has expired', async () => {
    open(`/acknowledge#${newToken()}`, () => jsonResponse(404, { error: LINK_ERROR }));
    await waitFor(() => expect(outcome()).toHaveTextContent(LINK_ERROR));
    expect(screen.queryByText(/^You acknowledged/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says so when the alert is already resolved', async () => {
    open(`/acknowledge#${newToken()}`, () =>
      jsonResponse(409, { error: 'This alert is already resolved' }),
    );
    await waitFor(() => expect(outcome()).toHaveTextContent('This alert is already resolved.'));
    expect(screen.queryByText('What to do now')).toBeNull();
  });

  it('never says a raised alert is over: the server’s words when it was raised since the link', async () => {
    const raised =
      'This alert has been raised to CRITICAL since. Open PawGuard to see it and acknowledge it there.';
    open(`/acknowledge#${newToken()}`, () => jsonResponse(409, { error: raised }));
    await waitFor(() => expect(outcome()).toHaveTextContent(raised));
    expect(outcome()).not.toHaveTextContent('already resolved');
  });

  it('asks nothing for a link without its token, and says the link is incomplete', async () => {
    const { posts } = open('/acknowledge', () => jsonResponse(200, { alert: makeAlert() }));
    expect(outcome()).toHaveTextContent(
      'This link is incomplete. Open PawGuard to acknowledge the alert.',
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(posts()).toHaveLength(0);
  });

  it('acknowledges a second link opened in the same tab, where only the fragment changes', async () => {
    const first = newToken();
    const second = newToken();
    const calls = stubFetch({
      'POST /api/alerts/acknowledge-link': (init) =>
        JSON.parse(String(init.body)).token === first
          ? jsonResponse(200, { alert: makeAlert({ dog_name: 'Biscuit' }) })
          : jsonResponse(200, { alert: makeAlert({ dog_name: 'Rex', level: 'CRITICAL' }) }),
    });
    renderWithProviders(
      <>
        <AcknowledgePage />
        <Link to={`/acknowledge#${second}`}>Second link</Link>
      </>,
      { route: `/acknowledge#${first}` },
    );
    await screen.findByText("You acknowledged Biscuit's Danger heat alert");
    await userEvent.setup().click(screen.getByRole('link', { name: 'Second link' }));
    await screen.findByText("You acknowledged Rex's Critical heat alert");
    expect(calls.map((c) => JSON.parse(String(c.init.body)).token)).toEqual([first, second]);
  });

  it('offers Try again when PawGuard could not be reached, and then acknowledges', async () => {
    let fail = true;
    const { posts, user } = open(`/acknowledge#${newToken()}`, () =>
      fail
        ? jsonResponse(429, { error: 'Too many requests. Please try again in a minute.' })
        : jsonResponse(200, { alert: makeAlert() }),
    );
    await waitFor(() =>
      expect(outcome()).toHaveTextContent('Too many requests. Please try again in a minute.'),
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(within(outcome()).getByText(/^You acknowledged/)).toBeInTheDocument(),
    );
    expect(posts()).toHaveLength(2);
  });
});
