import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Pack, PackInvitation, PackMember } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makePet } from '@/testing/devices';
import { PackSheet } from './pack-sheet';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const OWNER_ID = '20000000-0000-4000-8000-000000000001';
const SAM_ID = '30000000-0000-4000-8000-000000000001';
const JO_ID = '30000000-0000-4000-8000-000000000002';
const INVITATION_ID = '50000000-0000-4000-8000-000000000001';

const member = (overrides: Partial<PackMember> = {}): PackMember => ({
  user_id: SAM_ID,
  name: 'Sam Sitter',
  email: 'sam@example.com',
  role: 'caregiver',
  until: null,
  active: true,
  joined_at: '2025-06-10T10:00:00.000Z',
  ...overrides,
});

const invitation = (overrides: Partial<PackInvitation> = {}): PackInvitation => ({
  id: INVITATION_ID,
  email: 'kim@example.com',
  role: 'co_owner',
  until: null,
  created_at: '2025-06-20T10:00:00.000Z',
  expires_at: '2025-06-27T10:00:00.000Z',
  ...overrides,
});

function packOf(pet: ReturnType<typeof makePet>, overrides: Partial<Pack> = {}): Pack {
  return {
    dog_id: pet.id,
    dog_name: pet.name,
    owner: { user_id: OWNER_ID, name: 'Riley Owner' },
    access: pet.access,
    members: [],
    invitations: [],
    ...overrides,
  };
}

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

function open(pet: ReturnType<typeof makePet>, userId: string) {
  const onOpenChange = vi.fn();
  const auth = fakeAuth(makeUser({ id: userId, time_zone: 'Europe/London' }));
  renderWithProviders(<PackSheet pet={pet} onOpenChange={onOpenChange} />, { auth });
  return { onOpenChange, user: userEvent.setup() };
}

beforeEach(() => {
  vi.mocked(toast.error).mockClear();
  vi.mocked(toast.success).mockClear();
});
afterEach(() => vi.useRealTimers());

describe("the owner's pack sheet", () => {
  const pet = makePet({ name: 'Biscuit', user_id: OWNER_ID });
  const packPath = `GET /api/dogs/${pet.id}/pack`;

  it('lists the owner and each member with their role, end date, or Ended once it passed', async () => {
    stubFetch({
      [packPath]: () =>
        jsonResponse(200, {
          pack: packOf(pet, {
            members: [
              member({ until: '2099-07-08T22:59:00.000Z' }),
              member({
                user_id: JO_ID,
                name: 'Jo Neighbour',
                email: 'jo@example.com',
                role: 'co_owner',
                until: '2025-01-01T00:00:00.000Z',
                active: false,
              }),
            ],
          }),
        }),
    });
    open(pet, OWNER_ID);
    const dialog = await screen.findByRole('dialog', { name: "Biscuit's pack" });
    const people = await within(dialog).findByRole('list', { name: "People in Biscuit's pack" });
    const rows = within(people).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Riley Owner (you)');
    expect(rows[0]).toHaveTextContent('Owner');
    expect(rows[1]).toHaveTextContent('Sam Sitter');
    expect(rows[1]).toHaveTextContent('Caregiver');
    expect(rows[1]).toHaveTextContent('until Jul 8, 2099');
    expect(rows[1]).not.toHaveTextContent('Ended');
    expect(rows[2]).toHaveTextContent('Jo Neighbour');
    expect(rows[2]).toHaveTextContent('Co-owner');
    expect(rows[2]).toHaveTextContent('Ended');
    expect(
      within(rows[1]!).getByRole('button', { name: "Remove Sam Sitter from Biscuit's pack" }),
    ).toBeInTheDocument();
    // An owner does not leave their own pet's pack.
    expect(within(dialog).queryByRole('button', { name: /^Leave/ })).not.toBeInTheDocument();
  });

  it('says when nobody shares the pet yet', async () => {
    stubFetch({ [packPath]: () => jsonResponse(200, { pack: packOf(pet) }) });
    open(pet, OWNER_ID);
    expect(await screen.findByText(/^Only you so far/)).toBeInTheDocument();
  });

  it('says why the pack could not be loaded, and tries again', async () => {
    let calls = 0;
    stubFetch({
      [packPath]: () =>
        ++calls === 1
          ? jsonResponse(500, { error: 'Database unavailable' })
          : jsonResponse(200, { pack: packOf(pet) }),
    });
    const { user } = open(pet, OWNER_ID);
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(/^Only you so far/)).toBeInTheDocument();
  });

  it('invites a caregiver until the end of a chosen day on the owner’s clock', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2025-07-01T12:00:00.000Z'));
    const calls = stubFetch({
      [packPath]: () => jsonResponse(200, { pack: packOf(pet) }),
      [`POST /api/dogs/${pet.id}/pack/invitations`]: (init) =>
        jsonResponse(201, {
          invitation: invitation({
            email: 'sam@example.com',
            role: 'caregiver',
            until: bodyOf(init).until as string,
          }),
        }),
    });
    const { user } = open(pet, OWNER_ID);
    const form = await screen.findByRole('form', { name: 'Invite someone' });
    await user.type(within(form).getByLabelText('Email'), ' sam@example.com ');
    await user.click(within(form).getByRole('radio', { name: 'Caregiver' }));
    expect(within(form).getByRole('radio', { name: 'Caregiver' })).toHaveAccessibleDescription(
      "Sees the pet's live state and alerts, can acknowledge and resolve them, and changes nothing else.",
    );
    fireEvent.change(within(form).getByLabelText('Until (optional)'), {
      target: { value: '2025-07-08' },
    });
    await user.click(within(form).getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    const sent = calls.find((c) => c.method === 'POST')!;
    // Europe/London is an hour ahead of UTC in July: 23:59 there.
    expect(bodyOf(sent.init)).toEqual({
      email: 'sam@example.com',
      role: 'caregiver',
      until: '2025-07-08T22:59:00.000Z',
    });
    expect(toast.success).toHaveBeenCalledWith('Invitation sent', {
      description:
        "We e-mailed sam@example.com a link to join Biscuit's pack. It works once, for 7 days.",
    });
    expect(within(form).getByLabelText('Email')).toHaveValue('');
  });

  it('offers end dates from today to a year ahead, and says so for one outside them', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2025-07-01T12:00:00.000Z'));
    const calls = stubFetch({ [packPath]: () => jsonResponse(200, { pack: packOf(pet) }) });
    const { user } = open(pet, OWNER_ID);
    const form = await screen.findByRole('form', { name: 'Invite someone' });
    const until = within(form).getByLabelText('Until (optional)');
    expect(until).toHaveAttribute('min', '2025-07-01');
    expect(until).toHaveAttribute('max', '2026-07-01');
    await user.type(within(form).getByLabelText('Email'), 'sam@example.com');
    fireEvent.change(until, { target: { value: '2026-08-01' } });
    await user.click(within(form).getByRole('button', { name: 'Send Invitation' }));
    expect(
      await within(form).findByText(
        'Pick a date within a year, or leave it empty to share until you remove them.',
      ),
    ).toBeInTheDocument();
    fireEvent.change(until, { target: { value: '2025-06-30' } });
    await user.click(within(form).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(form).findByText('Pick today or a later date.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends no date when none is chosen, and says what the server refused', async () => {
    const calls = stubFetch({
      [packPath]: () => jsonResponse(200, { pack: packOf(pet) }),
      [`POST /api/dogs/${pet.id}/pack/invitations`]: () =>
        jsonResponse(409, { error: "sam@example.com is in Biscuit's pack already" }),
    });
    const { user } = open(pet, OWNER_ID);
    const form = await screen.findByRole('form', { name: 'Invite someone' });
    await user.type(within(form).getByLabelText('Email'), 'sam@example.com');
    await user.click(within(form).getByRole('radio', { name: 'Co-owner' }));
    await user.click(within(form).getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to send the invitation', {
        description: "sam@example.com is in Biscuit's pack already",
      }),
    );
    expect(bodyOf(calls.find((c) => c.method === 'POST')!.init)).toEqual({
      email: 'sam@example.com',
      role: 'co_owner',
      until: null,
    });
    expect(within(form).getByLabelText('Email')).toHaveValue('sam@example.com');
  });

  it('asks for a valid address before sending anything', async () => {
    const calls = stubFetch({ [packPath]: () => jsonResponse(200, { pack: packOf(pet) }) });
    const { user } = open(pet, OWNER_ID);
    const form = await screen.findByRole('form', { name: 'Invite someone' });
    await user.click(within(form).getByRole('button', { name: 'Send Invitation' }));
    expect(
      await within(form).findByText('Enter the e-mail address of the person to invite.'),
    ).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Email'), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Send Invitation' }));
    expect(
      await within(form).findByText('Enter a valid e-mail address, like name@example.com.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('lists open invitations and withdraws one', async () => {
    let withdrawn = false;
    const calls = stubFetch({
      [packPath]: () =>
        jsonResponse(200, { pack: packOf(pet, { invitations: withdrawn ? [] : [invitation()] }) }),
      [`DELETE /api/dogs/${pet.id}/pack/invitations/${INVITATION_ID}`]: () => {
        withdrawn = true;
        return jsonResponse(200, { success: true });
      },
    });
    const { user } = open(pet, OWNER_ID);
    const waiting = await screen.findByRole('region', {
      name: 'Invitations waiting for an answer',
    });
    expect(waiting).toHaveTextContent('kim@example.com');
    expect(waiting).toHaveTextContent('Co-owner · link works until Jun 27, 2025');
    await user.click(
      within(waiting).getByRole('button', { name: 'Withdraw the invitation to kim@example.com' }),
    );
    await waitFor(() =>
      expect(
        screen.queryByRole('region', { name: 'Invitations waiting for an answer' }),
      ).not.toBeInTheDocument(),
    );
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    expect(toast.success).toHaveBeenCalledWith('Invitation withdrawn', {
      description: 'The link sent to kim@example.com no longer works.',
    });
  });

  it('removes a member after asking, and the list no longer shows them', async () => {
    let removed = false;
    const calls = stubFetch({
      [packPath]: () =>
        jsonResponse(200, { pack: packOf(pet, { members: removed ? [] : [member()] }) }),
      [`DELETE /api/dogs/${pet.id}/pack/members/${SAM_ID}`]: () => {
        removed = true;
        return jsonResponse(200, { success: true });
      },
    });
    const { user } = open(pet, OWNER_ID);
    await user.click(
      await screen.findByRole('button', { name: "Remove Sam Sitter from Biscuit's pack" }),
    );
    const confirm = await screen.findByRole('alertdialog', {
      name: "Remove Sam Sitter from Biscuit's pack?",
    });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith("Sam Sitter removed from Biscuit's pack"),
    );
    expect(await screen.findByText(/^Only you so far/)).toBeInTheDocument();
  });
});

describe("a member's pack sheet", () => {
  const pet = makePet({
    name: 'Biscuit',
    user_id: OWNER_ID,
    access: 'caregiver',
    owner_name: 'Riley Owner',
  });

  it('shows who is in the pack, without inviting or removing, and leaves after asking', async () => {
    const calls = stubFetch({
      [`GET /api/dogs/${pet.id}/pack`]: () =>
        jsonResponse(200, { pack: packOf(pet, { members: [member()] }) }),
      [`DELETE /api/dogs/${pet.id}/pack/members/${SAM_ID}`]: () =>
        jsonResponse(200, { success: true }),
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
    });
    const { user, onOpenChange } = open(pet, SAM_ID);
    const people = await screen.findByRole('list', { name: "People in Biscuit's pack" });
    expect(people).toHaveTextContent('Riley Owner');
    expect(people).toHaveTextContent('Sam Sitter (you)');
    expect(screen.queryByRole('form', { name: 'Invite someone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: "Leave Biscuit's pack" }));
    const confirm = await screen.findByRole('alertdialog', { name: "Leave Biscuit's pack?" });
    await user.click(within(confirm).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      `/api/dogs/${pet.id}/pack/members/${SAM_ID}`,
    ]);
    expect(toast.success).toHaveBeenCalledWith("You left Biscuit's pack", {
      description: 'Biscuit is no longer on your lists.',
    });
  });

  it('stays open and says why when leaving fails', async () => {
    stubFetch({
      [`GET /api/dogs/${pet.id}/pack`]: () =>
        jsonResponse(200, { pack: packOf(pet, { members: [member()] }) }),
      [`DELETE /api/dogs/${pet.id}/pack/members/${SAM_ID}`]: () =>
        jsonResponse(404, { error: 'Not in this pet’s pack' }),
    });
    const { user, onOpenChange } = open(pet, SAM_ID);
    await user.click(await screen.findByRole('button', { name: "Leave Biscuit's pack" }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Failed to leave Biscuit's pack", {
        description: 'Not in this pet’s pack',
      }),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
