import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice, makePet } from '@/testing/devices';
import { EditDeviceSheet } from './edit-device-sheet';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const rex = makePet({ name: 'Rex' });
const pepper = makePet({ name: 'Pepper' });
const device = makeDevice({ device_name: 'Rex collar', dog_id: rex.id, dog_name: 'Rex' });
const PUT = `PUT /api/devices/${device.id}`;

function open(routes: Parameters<typeof stubFetch>[0] = {}) {
  const calls = stubFetch(routes);
  const onOpenChange = vi.fn();
  renderWithProviders(
    <EditDeviceSheet device={device} pets={[rex, pepper]} onOpenChange={onOpenChange} />,
    { auth: fakeAuth(makeUser()) },
  );
  return { calls, onOpenChange, user: userEvent.setup() };
}

describe('the Edit Device sheet', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('says a blank name is required once the field is left, and keeps Save Changes disabled', async () => {
    const { calls, user } = open();
    const name = screen.getByLabelText('Device Name *');
    await user.clear(name);
    await user.type(name, '   ');
    expect(screen.queryByText('Device name is required')).not.toBeInTheDocument();
    await user.tab();
    const message = await screen.findByText('Device name is required');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAttribute('aria-describedby', message.id);
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await user.type(name, 'Collar');
    await waitFor(() =>
      expect(screen.queryByText('Device name is required')).not.toBeInTheDocument(),
    );
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(calls).toHaveLength(0);
  });

  it('sends the trimmed name and null for No pet', async () => {
    const { calls, onOpenChange, user } = open({
      [PUT]: () => jsonResponse(200, { device: { ...device, device_name: 'Garden collar' } }),
    });
    const name = screen.getByLabelText('Device Name *');
    await user.clear(name);
    await user.type(name, '  Garden collar ');
    await user.selectOptions(screen.getByLabelText('Pet'), 'No pet');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Device updated successfully!'));
    const put = calls.find((c) => `${c.method} ${c.url}` === PUT)!;
    expect(JSON.parse(String(put.init.body))).toEqual({
      device_name: 'Garden collar',
      dog_id: null,
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('moves the collar to another pet', async () => {
    const { calls, user } = open({ [PUT]: () => jsonResponse(200, { device }) });
    await user.selectOptions(screen.getByLabelText('Pet'), 'Pepper');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls.some((c) => `${c.method} ${c.url}` === PUT)).toBe(true));
    const put = calls.find((c) => `${c.method} ${c.url}` === PUT)!;
    expect(JSON.parse(String(put.init.body))).toEqual({
      device_name: 'Rex collar',
      dog_id: pepper.id,
    });
  });
});

describe('the Edit Device sheet for a co-owner', () => {
  it('renames the collar without offering to move it, and sends the name alone', async () => {
    const shared = makeDevice({
      device_name: 'Biscuit collar',
      dog_id: rex.id,
      dog_name: 'Biscuit',
      owner_name: 'Riley Owner',
    });
    const calls = stubFetch({
      [`PUT /api/devices/${shared.id}`]: (init) =>
        jsonResponse(200, { device: { ...shared, ...JSON.parse(String(init.body)) } }),
    });
    renderWithProviders(
      <EditDeviceSheet device={shared} access="co_owner" pets={[]} onOpenChange={() => {}} />,
      { auth: fakeAuth(makeUser()) },
    );
    const user = userEvent.setup();
    const pet = screen.getByLabelText('Pet');
    expect(pet).toHaveValue('Biscuit');
    expect(pet).toHaveAttribute('readonly');
    expect(pet).toHaveAccessibleDescription('Only Riley Owner moves this collar to another pet.');
    const name = screen.getByLabelText('Device Name *');
    await user.clear(name);
    await user.type(name, 'Walk collar');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ device_name: 'Walk collar' });
  });
});
