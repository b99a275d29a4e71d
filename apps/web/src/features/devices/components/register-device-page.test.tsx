import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Dog } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makeDevice, makePet } from '@/testing/devices';
import { RegisterDevicePage } from './register-device-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const AUTO_ASSIGN = 'POST /api/device-registration/auto-assign';
const pepper = makePet({ name: 'Pepper' });

async function open(pets: Dog[], routes: Routes = {}) {
  const calls = stubFetch({
    'GET /api/dogs': () => jsonResponse(200, { dogs: pets, total: pets.length }),
    ...routes,
  });
  renderWithProviders(<RegisterDevicePage />, { auth: fakeAuth(makeUser()) });
  await screen.findByRole('form', { name: 'Auto-assign a collar' });
  const posts = () => calls.filter((c) => `${c.method} ${c.url}` === AUTO_ASSIGN);
  return { posts, user: userEvent.setup() };
}

describe('the Register Device page', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
  });

  it('chooses the only pet and asks for every field, a name of spaces too', async () => {
    const { posts, user } = await open([pepper]);
    expect(screen.getByLabelText('Pet')).toHaveValue(pepper.id);
    await user.type(screen.getByLabelText('Device Name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Assign Collar' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill in all fields');
    expect(screen.getByLabelText('Device Name')).toHaveFocus();
    expect(posts()).toHaveLength(0);
  });

  it('asks for a pet when there are several', async () => {
    const { posts, user } = await open([pepper, makePet({ name: 'Biscuit' })]);
    expect(screen.getByLabelText('Pet')).toHaveValue('');
    await user.type(screen.getByLabelText('Device Name'), 'Collar');
    await user.click(screen.getByRole('button', { name: 'Assign Collar' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill in all fields');
    expect(screen.getByLabelText('Pet')).toHaveFocus();
    expect(posts()).toHaveLength(0);
  });

  it('reserves a collar with the trimmed name and shows its Device ID', async () => {
    const device = makeDevice({
      device_id: 'PET-QQ12',
      device_name: "Pepper's collar",
      dog_name: 'Pepper',
    });
    const { posts, user } = await open([pepper], {
      [AUTO_ASSIGN]: () => jsonResponse(201, { device }),
    });
    await user.type(screen.getByLabelText('Device Name'), "  Pepper's collar ");
    await user.click(screen.getByRole('button', { name: 'Assign Collar' }));
    expect(await screen.findByRole('heading', { name: 'Collar Assigned!' })).toBeInTheDocument();
    expect(screen.getByRole('definition')).toHaveTextContent('PET-QQ12');
    // What happened, not a delivery that was never ordered.
    expect(
      screen.getByText(
        "A collar from the PawGuard fleet is now reserved for Pepper, as “Pepper's collar”.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Check your email for setup instructions')).toBeInTheDocument();
    expect(
      screen.getByText('We have e-mailed you the setup steps for this collar. Here they are too:'),
    ).toBeInTheDocument();
    expect(screen.getByText('Setting up collar PET-QQ12')).toBeInTheDocument();
    expect(screen.queryByText(/arrives/)).toBeNull();
    expect(JSON.parse(String(posts()[0]!.init.body))).toEqual({
      dog_id: pepper.id,
      device_name: "Pepper's collar",
    });
  });

  it("shows the server's reason when no collar is free", async () => {
    const { user } = await open([pepper], {
      [AUTO_ASSIGN]: () => jsonResponse(409, { error: 'No collar is free right now' }),
    });
    await user.type(screen.getByLabelText('Device Name'), 'Collar');
    await user.click(screen.getByRole('button', { name: 'Assign Collar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No collar is free right now');
    expect(toast.error).toHaveBeenCalledWith('Failed to assign device', {
      description: 'No collar is free right now',
    });
  });
});
