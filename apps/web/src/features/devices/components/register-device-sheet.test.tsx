import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makeDevice, makePet } from '@/testing/devices';
import { RegisterDeviceSheet } from './register-device-sheet';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const pet = makePet({ name: 'Biscuit' });
const LOOKUP = 'GET /api/devices/by-device-id/PET-AB12';
const ASSIGN = 'POST /api/devices/assign/PET-AB12';
const CREATE = 'POST /api/devices';
const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

async function registerWith(routes: Routes, deviceId = 'pet-ab12') {
  const calls = stubFetch({
    'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    ...routes,
  });
  const onOpenChange = vi.fn();
  renderWithProviders(<RegisterDeviceSheet open onOpenChange={onOpenChange} pets={[pet]} />, {
    auth: fakeAuth(makeUser()),
  });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Device Name *'), "Biscuit's collar");
  await user.type(screen.getByLabelText('Device ID *'), deviceId);
  await user.click(screen.getByRole('button', { name: 'Register Device' }));
  const called = (key: string) => calls.filter((c) => `${c.method} ${c.url}` === key);
  return { calls, called, onOpenChange, user };
}

describe('the Register Device sheet', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('keeps Register Device disabled until pet, device name and Device ID are filled', async () => {
    stubFetch({});
    renderWithProviders(
      <RegisterDeviceSheet
        open
        onOpenChange={() => {}}
        pets={[pet, makePet({ name: 'Pepper' })]}
      />,
      { auth: fakeAuth(makeUser()) },
    );
    const user = userEvent.setup();
    const submit = screen.getByRole('button', { name: 'Register Device' });
    expect(submit).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Pet *'), 'Biscuit');
    await user.type(screen.getByLabelText('Device Name *'), 'Collar');
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Device ID *'), '  ');
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Device ID *'), 'PET-AB12');
    expect(submit).toBeEnabled();
  });

  it('claims an unassigned collar for the pet: lookup, then assign', async () => {
    const { called, onOpenChange } = await registerWith({
      [LOOKUP]: () =>
        jsonResponse(200, {
          status: 'unassigned',
          message: 'Device PET-AB12 is available to register.',
        }),
      [ASSIGN]: () =>
        jsonResponse(200, {
          device: makeDevice({ device_id: 'PET-AB12', dog_id: pet.id, dog_name: 'Biscuit' }),
        }),
    });
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        'Device Assigned Successfully!',
        expect.anything(),
      ),
    );
    const [assign] = called(ASSIGN);
    expect(bodyOf(assign!.init)).toEqual({
      dog_id: pet.id,
      device_name: "Biscuit's collar",
      device_type: 'collar',
    });
    expect(called(CREATE)).toHaveLength(0);
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("refuses an assigned collar with 'Device Already Assigned', without claiming it", async () => {
    const message = 'Device PET-AB12 is already assigned to another user.';
    const { called, onOpenChange } = await registerWith({
      [LOOKUP]: () => jsonResponse(200, { status: 'assigned', message }),
    });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Device Already Assigned', { description: message }),
    );
    expect(called(ASSIGN)).toHaveLength(0);
    expect(called(CREATE)).toHaveLength(0);
    expect(onOpenChange).not.toHaveBeenCalled();
  });

  it('asks before creating a device for a Device ID no collar has, and creates nothing when the owner checks the ID', async () => {
    const { called, user, onOpenChange } = await registerWith({
      [LOOKUP]: () => jsonResponse(404, { error: 'Device PET-AB12 was not found' }),
    });
    const question = await screen.findByRole('alert');
    expect(question).toHaveTextContent(
      'No collar PET-AB12 is known. Check the ID on the collar, or create it anyway?',
    );
    expect(called(CREATE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Check the ID' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Device ID *')).toHaveFocus();
    expect(called(CREATE)).toHaveLength(0);
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('asks about a Device ID typed in lower case with spaces around it, in its canonical form', async () => {
    const { called, user } = await registerWith(
      {
        [LOOKUP]: () => jsonResponse(404, { error: 'Device PET-AB12 was not found' }),
        [CREATE]: () =>
          jsonResponse(201, {
            device: makeDevice({ device_id: 'PET-AB12', registration_status: 'unregistered' }),
          }),
      },
      '  pet-ab12 ',
    );
    // The question stays while the field still holds that ID, however it was typed.
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No collar PET-AB12 is known. Check the ID on the collar, or create it anyway?',
    );
    expect(screen.getByLabelText('Device ID *')).toHaveValue('  pet-ab12 ');
    await user.click(screen.getByRole('button', { name: 'Create it anyway' }));
    await waitFor(() => expect(called(CREATE)).toHaveLength(1));
    expect(bodyOf(called(CREATE)[0]!.init)).toMatchObject({ device_id: 'PET-AB12' });
  });

  it('creates the device for an unknown Device ID (404) once the owner confirms, noting an admin must pre-populate it', async () => {
    const { called, user } = await registerWith({
      [LOOKUP]: () => jsonResponse(404, { error: 'Device PET-AB12 was not found' }),
      [CREATE]: () =>
        jsonResponse(201, {
          device: makeDevice({ device_id: 'PET-AB12', registration_status: 'unregistered' }),
        }),
    });
    await screen.findByText(
      'No collar PET-AB12 is known. Check the ID on the collar, or create it anyway?',
    );
    expect(called(CREATE)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Create it anyway' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalled());
    const [title, options] = vi.mocked(toast.success).mock.calls[0]!;
    expect(title).toMatch(/created successfully/i);
    expect((options as { description: string }).description).toMatch(
      /admin must pre-populate it for hardware integration/,
    );
    expect(bodyOf(called(CREATE)[0]!.init)).toEqual({
      device_id: 'PET-AB12',
      dog_id: pet.id,
      device_name: "Biscuit's collar",
      device_type: 'collar',
    });
    expect(called(ASSIGN)).toHaveLength(0);
  });

  it("shows 'Assignment Failed' on a server error, and never falls back to creating a device", async () => {
    const { called } = await registerWith({
      [LOOKUP]: () => jsonResponse(500, { error: 'Internal Server Error' }),
    });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Assignment Failed', {
        description: 'Failed to assign device. Please try again.',
      }),
    );
    expect(called(CREATE)).toHaveLength(0);
    expect(called(ASSIGN)).toHaveLength(0);
  });

  it('says how long to wait when the look-up budget is spent, and never falls back', async () => {
    const wait = 'Too many Device ID look-ups. Please try again in a minute.';
    const { called } = await registerWith({ [LOOKUP]: () => jsonResponse(429, { error: wait }) });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Assignment Failed', { description: wait }),
    );
    expect(called(CREATE)).toHaveLength(0);
  });

  it("shows the server's reason on a 400 (a vest is not for customers), and never falls back", async () => {
    const reason = 'Device PET-AB12 is a vest; customers may register collars only.';
    const { called } = await registerWith({ [LOOKUP]: () => jsonResponse(400, { error: reason }) });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Assignment Failed', { description: reason }),
    );
    expect(called(CREATE)).toHaveLength(0);
  });

  it('never falls back on a network error either', async () => {
    const { called } = await registerWith({
      [LOOKUP]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Assignment Failed', expect.anything()),
    );
    expect(called(CREATE)).toHaveLength(0);
  });

  it('reports a claim lost to someone else in the meantime as already assigned', async () => {
    const message = 'Device PET-AB12 is already assigned to another user.';
    await registerWith({
      [LOOKUP]: () => jsonResponse(200, { status: 'unassigned', message: 'available' }),
      [ASSIGN]: () => jsonResponse(409, { error: message }),
    });
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Device Already Assigned', { description: message }),
    );
  });

  it('asks for a well-formed Device ID before calling the server', async () => {
    const { calls } = await registerWith({}, 'AB12');
    expect(screen.getByText(/PET- and 4 letters or digits/)).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('by-device-id'))).toHaveLength(0);
  });

  it('ties the Device ID message to its field and focuses it, in place of the hint, until it is right', async () => {
    const { user } = await registerWith(
      { [LOOKUP]: () => jsonResponse(404, { error: 'Device not found' }) },
      'PET-AB1',
    );
    const field = screen.getByLabelText('Device ID *');
    const message = screen.getByText(
      'Enter the Device ID as printed on the collar: PET- and 4 letters or digits.',
    );
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', message.id);
    expect(screen.queryByText(/Printed on the collar/)).not.toBeInTheDocument();
    await user.type(field, '2');
    await waitFor(() => expect(field).not.toHaveAttribute('aria-invalid'));
    expect(screen.getByText(/Printed on the collar/).id).toBe(
      field.getAttribute('aria-describedby'),
    );
    expect(toast.error).not.toHaveBeenCalled();
  });
});
