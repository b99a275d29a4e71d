import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { toast } from 'sonner';
import { PACK_JOIN_PAGE, type PackInvitationPreview, type User } from '@pawguard/shared';
import { paths } from '@/config/paths';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makePet } from '@/testing/devices';
import { INVITATION_TOKEN_KEY } from '../hooks/use-invitation-token';
import { JoinPackPage } from './join-pack-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const TOKEN = 'tok_5bYz-abc';
const NOT_VALID =
  'This invitation is not valid any more: it was used, withdrawn or has expired. Ask for a new one.';

const preview = (overrides: Partial<PackInvitationPreview> = {}): PackInvitationPreview => ({
  dog_name: 'Biscuit',
  inviter_name: 'Riley Owner',
  role: 'caregiver',
  until: '2099-07-08T22:59:00.000Z',
  email: 'sam@example.com',
  expires_at: '2099-07-01T10:00:00.000Z',
  ...overrides,
});

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

function Address() {
  const { pathname, hash } = useLocation();
  return <p data-testid="address">{pathname + hash}</p>;
}

function open({ user = null as User | null, route = `${paths.packJoin}#${TOKEN}` } = {}) {
  const onSignIn = vi.fn();
  const onSignUp = vi.fn();
  const logout = vi.fn(async () => {});
  renderWithProviders(
    <>
      <Routes>
        <Route
          path={paths.packJoin}
          element={<JoinPackPage onSignIn={onSignIn} onSignUp={onSignUp} />}
        />
        <Route path={paths.myPets} element={<h1>My Pets screen</h1>} />
      </Routes>
      <Address />
    </>,
    { route, auth: fakeAuth(user, { logout }) },
  );
  return { onSignIn, onSignUp, logout, user: userEvent.setup() };
}

beforeEach(() => {
  sessionStorage.clear();
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
});

describe('the pack invitation page', () => {
  it('is at the address the invitation mail links to', () => {
    expect(paths.packJoin).toBe(PACK_JOIN_PAGE);
  });

  it('shows a signed-out visitor who invites them to which pet, as what, and how to accept', async () => {
    const calls = stubFetch({
      'POST /api/pack/invitation': () => jsonResponse(200, { invitation: preview() }),
    });
    const { onSignUp, onSignIn, user } = open();
    expect(
      await screen.findByRole('heading', {
        name: "Riley Owner invites you to Biscuit's pack as caregiver (until Jul 8, 2099)",
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent("Join Biscuit's pack");
    expect(screen.getByText('As a caregiver you can:')).toBeInTheDocument();
    expect(screen.getByText("See Biscuit's live readings, history and activity")).toBeVisible();
    expect(screen.getByText('A caregiver changes nothing else about Biscuit.')).toBeVisible();
    expect(bodyOf(calls[0]!.init)).toEqual({ token: TOKEN });

    // The token leaves the address bar at once, and waits in this tab for the sign-up.
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/pack\/join$/);
    expect(sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBe(TOKEN);

    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(onSignUp).toHaveBeenCalledWith('sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSignIn).toHaveBeenCalledWith('sam@example.com');
  });

  it('accepts for the invited account, with the token kept from before the sign-in, and opens My Pets', async () => {
    sessionStorage.setItem(INVITATION_TOKEN_KEY, TOKEN);
    const calls = stubFetch({
      'POST /api/pack/invitation': () => jsonResponse(200, { invitation: preview() }),
      'POST /api/pack/accept': () =>
        jsonResponse(200, {
          dog: makePet({ name: 'Biscuit', access: 'caregiver', owner_name: 'Riley Owner' }),
        }),
    });
    const { user } = open({
      user: makeUser({ email: 'Sam@Example.com' }),
      route: paths.packJoin,
    });
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('heading', { name: 'My Pets screen' })).toBeInTheDocument();
    const accept = calls.find((c) => c.url === '/api/pack/accept')!;
    expect(bodyOf(accept.init)).toEqual({ token: TOKEN });
    expect(toast.success).toHaveBeenCalledWith("You joined Biscuit's pack", {
      description: 'Biscuit is on My Pets and Monitoring now.',
    });
    expect(sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBeNull();
  });

  it('tells someone signed in with another address to sign out, before they try', async () => {
    stubFetch({ 'POST /api/pack/invitation': () => jsonResponse(200, { invitation: preview() }) });
    const { logout, user } = open({ user: makeUser({ email: 'alex@example.com' }) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'This invitation was sent to sam@example.com, and you are signed in as alex@example.com. Sign out, then sign in or create an account with sam@example.com.',
    );
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Sign out' }));
    expect(logout).toHaveBeenCalled();
    // The invitation waits for the right account.
    expect(sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBe(TOKEN);
  });

  it("shows the server's refusal of another address (403) with the sign-out hint", async () => {
    stubFetch({
      'POST /api/pack/invitation': () => jsonResponse(200, { invitation: preview() }),
      'POST /api/pack/accept': () =>
        jsonResponse(403, {
          error:
            'This invitation was sent to sam@example.com. Sign in with that address to accept it.',
        }),
    });
    const { user } = open({ user: makeUser({ email: 'sam@example.com' }) });
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'This invitation was sent to sam@example.com. Sign in with that address to accept it. Sign out, then sign in or create an account with sam@example.com.',
    );
    expect(within(alert).getByRole('button', { name: 'Sign out' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'My Pets screen' })).not.toBeInTheDocument();
  });

  it('says plainly when the link was used, withdrawn or has expired (404), and forgets it', async () => {
    sessionStorage.setItem(INVITATION_TOKEN_KEY, 'an-older-token');
    stubFetch({ 'POST /api/pack/invitation': () => jsonResponse(404, { error: NOT_VALID }) });
    open();
    expect(
      await screen.findByRole('heading', { name: "This invitation can't be used" }),
    ).toBeInTheDocument();
    expect(screen.getByText(NOT_VALID)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBeNull());
  });

  it('says so when accepting finds the link spent (404), and offers My Pets instead of Accept', async () => {
    stubFetch({
      'POST /api/pack/invitation': () => jsonResponse(200, { invitation: preview() }),
      'POST /api/pack/accept': () => jsonResponse(404, { error: NOT_VALID }),
    });
    const { user } = open({ user: makeUser({ email: 'sam@example.com' }) });
    await user.click(await screen.findByRole('button', { name: 'Accept Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_VALID);
    expect(screen.queryByRole('button', { name: 'Accept Invitation' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to My Pets' })).toHaveAttribute('href', '/my-pets');
    expect(sessionStorage.getItem(INVITATION_TOKEN_KEY)).toBeNull();
  });

  it('explains itself when opened without an invitation', () => {
    const calls = stubFetch({});
    open({ route: paths.packJoin });
    expect(screen.getByRole('heading', { name: 'No invitation here' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
