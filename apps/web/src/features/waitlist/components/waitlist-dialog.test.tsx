import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { PET_BREEDS } from '@pawguard/shared/content';
import { renderWithProviders } from '@/testing/render';
import { jsonResponse, stubFetch } from '@/testing/fixtures';
import { WaitlistDialog } from './waitlist-dialog';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const JOINED = { success: true, message: 'Thanks for joining!' };

function setup(answer: () => Response | Promise<Response> = () => jsonResponse(201, JOINED)) {
  const calls = stubFetch({ 'POST /api/waitlist': answer });
  const onOpenChange = vi.fn();
  renderWithProviders(<WaitlistDialog open onOpenChange={onOpenChange} />);
  return { calls, onOpenChange, user: userEvent.setup() };
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, skip?: string) {
  const values: Record<string, string> = {
    Name: 'Riley Owner',
    Email: 'riley@example.com',
    Phone: '+1 555 0100',
    'Pet Name': 'Biscuit',
  };
  for (const [label, value] of Object.entries(values)) {
    if (label !== skip) await user.type(screen.getByLabelText(label), value);
  }
  if (skip !== 'Pet Breed') await user.selectOptions(screen.getByLabelText('Pet Breed'), 'Beagle');
}

const submit = () => screen.getByRole('button', { name: 'Join Waitlist' });

describe('WaitlistDialog', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('asks for name, email, phone, pet name and one of the 12 breeds, all required', () => {
    setup();
    expect(screen.getByRole('dialog', { name: 'Join the Waitlist' })).toBeInTheDocument();
    for (const label of ['Name', 'Email', 'Phone', 'Pet Name', 'Pet Breed'])
      expect(screen.getByLabelText(label)).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Phone')).toHaveAttribute('type', 'tel');
    const breeds = screen
      .getAllByRole('option')
      .filter((option) => (option as HTMLOptionElement).value !== '')
      .map((option) => option.textContent);
    expect(breeds).toEqual([...PET_BREEDS]);
    expect(screen.getByRole('form', { name: 'Join the Waitlist' })).toHaveAttribute('novalidate');
  });

  it('names each empty field inline and sends nothing', async () => {
    const { calls, user } = setup();
    await user.click(submit());

    expect(await screen.findByText('Please enter your name.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your email address.')).toBeInTheDocument();
    expect(screen.getByText('Please enter your phone number.')).toBeInTheDocument();
    expect(screen.getByText("Please enter your pet's name.")).toBeInTheDocument();
    expect(screen.getByText("Please choose your pet's breed.")).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Please enter your name.');
    expect(calls).toHaveLength(0);
  });

  it('treats a whitespace-only field as missing', async () => {
    const { calls, user } = setup();
    await fillIn(user, 'Pet Name');
    await user.type(screen.getByLabelText('Pet Name'), '   ');
    await user.click(submit());

    expect(await screen.findByText("Please enter your pet's name.")).toBeInTheDocument();
    expect(screen.queryByText('Please enter your name.')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('reads "Joining..." while the request is pending, then thanks the visitor and closes', async () => {
    let answer!: (response: Response) => void;
    const { calls, onOpenChange, user } = setup(
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    await fillIn(user);
    await user.click(submit());

    const pending = await screen.findByRole('button', { name: 'Joining...' });
    expect(pending).toBeDisabled();
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      name: 'Riley Owner',
      email: 'riley@example.com',
      phone: '+1 555 0100',
      petName: 'Biscuit',
      petBreed: 'Beagle',
    });

    answer(jsonResponse(201, JOINED));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(toast.success).toHaveBeenCalledWith(
      'Successfully Joined Waitlist!',
      expect.objectContaining({ description: expect.stringMatching(/thank you/i), duration: 5000 }),
    );
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it("shows the server's error, such as a duplicate e-mail, and keeps the form open", async () => {
    const { onOpenChange, user } = setup(() =>
      jsonResponse(409, { error: 'This email is already on the waitlist' }),
    );
    await fillIn(user);
    await user.click(submit());

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('This email is already on the waitlist', {
        duration: 5000,
      }),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Name')).toHaveValue('Riley Owner');
    expect(submit()).toBeEnabled();
  });

  it('falls back to "Failed to join waitlist. Please try again." without a server message', async () => {
    const { user } = setup(() => new Response('', { status: 500 }));
    await fillIn(user);
    await user.click(submit());

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to join waitlist. Please try again.', {
        duration: 5000,
      }),
    );
  });

  it('falls back to the same message when the network fails', async () => {
    const { user } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await fillIn(user);
    await user.click(submit());

    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to join waitlist. Please try again.', {
        duration: 5000,
      }),
    );
  });

  it('names an e-mail or phone number the server would refuse inline, and sends nothing', async () => {
    const { calls, user } = setup();
    await fillIn(user, 'Email');
    await user.type(screen.getByLabelText('Email'), 'riley@example.c');
    await user.clear(screen.getByLabelText('Phone'));
    await user.type(screen.getByLabelText('Phone'), 'call me maybe');
    await user.click(submit());

    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription(
      'Please enter a valid phone number: digits, spaces and + ( ) . - only.',
    );
    expect(calls).toHaveLength(0);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('gives focus back to the button that opened it when it closes', async () => {
    stubFetch({ 'POST /api/waitlist': () => jsonResponse(201, JOINED) });
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Join Waitlist
          </button>
          <WaitlistDialog open={open} onOpenChange={setOpen} />
        </>
      );
    }
    renderWithProviders(<Opener />);
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: 'Join Waitlist' });
    await user.click(opener);
    expect(await screen.findByRole('dialog', { name: 'Join the Waitlist' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveFocus();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });
});
