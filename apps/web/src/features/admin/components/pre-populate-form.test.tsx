import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makeDevice } from '@/testing/devices';
import { AdminPortalPage } from './admin-portal-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const PRE_POPULATE = 'POST /api/admin/devices/pre-populate';
const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;

function setup(routes: Routes = {}) {
  const calls = stubFetch({
    'GET /api/devices/all': () =>
      jsonResponse(200, {
        devices: [
          makeDevice({ device_id: 'PET-OLD1', created_at: '2025-01-01T00:00:00.000Z' }),
          makeDevice({
            id: 'dev-1',
            device_id: 'PET-NEW1',
            created_at: '2025-06-01T00:00:00.000Z',
          }),
        ],
        total: 2,
      }),
    ...routes,
  });
  renderWithProviders(<AdminPortalPage />, { auth: fakeAuth(makeUser({ role: 'admin' })) });
  return { calls, user: userEvent.setup() };
}

describe('the Admin Portal', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('requires both the Device ID and the MAC address, without calling the server', async () => {
    const { calls, user } = setup();
    await user.type(screen.getByLabelText('Device ID *'), 'PET-AB12');
    await user.click(screen.getByRole('button', { name: 'Pre-populate Device' }));
    expect(toast.error).toHaveBeenCalledWith('Device ID and MAC address are required');

    await user.clear(screen.getByLabelText('Device ID *'));
    await user.type(screen.getByLabelText('MAC Address *'), 'aa:bb:cc:dd:ee:ff');
    await user.click(screen.getByRole('button', { name: 'Pre-populate Device' }));
    expect(toast.error).toHaveBeenCalledTimes(2);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('names a wrong Device ID or MAC address under its field, focused, until it is right', async () => {
    const { calls, user } = setup();
    const id = screen.getByLabelText('Device ID *');
    const mac = screen.getByLabelText('MAC Address *');
    await user.type(id, 'PET-1');
    await user.type(mac, 'AA:BB:CC');
    await user.click(screen.getByRole('button', { name: 'Pre-populate Device' }));
    const idMessage = await screen.findByText(
      'The Device ID must look like PET-AB12 (PET- and 4 letters or digits).',
    );
    const macMessage = screen.getByText('The MAC address must look like AA:BB:CC:DD:EE:FF.');
    expect(id).toHaveFocus();
    expect(id).toHaveAttribute('aria-invalid', 'true');
    expect(id).toHaveAttribute('aria-describedby', idMessage.id);
    expect(mac).toHaveAttribute('aria-invalid', 'true');
    expect(mac.getAttribute('aria-describedby')).toMatch(new RegExp(`^${macMessage.id} `));
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Failed to pre-populate device', {
      description:
        'The Device ID must look like PET-AB12 (PET- and 4 letters or digits). ' +
        'The MAC address must look like AA:BB:CC:DD:EE:FF.',
    });
    await user.type(id, '234');
    await waitFor(() => expect(id).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByText(/The Device ID must look like/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('says in a toast what is wrong with a filled MAC address, not that it is required', async () => {
    const { calls, user } = setup({
      'GET /api/devices/generate-id': () => jsonResponse(200, { device_id: 'PET-M59G' }),
    });
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByLabelText('Device ID *')).toHaveValue('PET-M59G'));
    await user.type(screen.getByLabelText('MAC Address *'), 'zz:zz{Enter}');
    await screen.findByText('The MAC address must look like AA:BB:CC:DD:EE:FF.');
    // Both fields are filled: not the spec's 'required' toast, but what is wrong.
    expect(toast.error).toHaveBeenCalledExactlyOnceWith('Failed to pre-populate device', {
      description: 'The MAC address must look like AA:BB:CC:DD:EE:FF.',
    });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it("fills the Device ID from Generate, names the device 'Device ' + id, and shows the key once", async () => {
    const { calls, user } = setup({
      'GET /api/devices/generate-id': () => jsonResponse(200, { device_id: 'PET-Z9Y8' }),
      [PRE_POPULATE]: () =>
        jsonResponse(201, {
          devices: [
            {
              id: 'd1',
              device_id: 'PET-Z9Y8',
              device_key: 'secret-device-key-123',
              qr_code: 'data:image/png;base64,AAAA',
              adopted: false,
              owner_name: null,
            },
          ],
        }),
    });
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(screen.getByLabelText('Device ID *')).toHaveValue('PET-Z9Y8'));
    await user.type(screen.getByLabelText('MAC Address *'), 'aa-bb-cc-dd-ee-ff');
    await user.click(screen.getByRole('button', { name: 'Pre-populate Device' }));

    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Device PET-Z9Y8 pre-populated successfully'),
    );
    expect(bodyOf(calls.find((c) => c.method === 'POST')!.init)).toEqual({
      devices: [
        {
          device_id: 'PET-Z9Y8',
          // Typed in any case and separator; sent as the shared schema normalises it.
          device_address: 'AA:BB:CC:DD:EE:FF',
          device_name: 'Device PET-Z9Y8',
          device_type: 'collar',
        },
      ],
    });
    expect(screen.getByLabelText('Key for PET-Z9Y8')).toHaveValue('secret-device-key-123');
    expect(screen.getByText(/shown only this once/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /QR code/ })).toHaveAttribute(
      'src',
      'data:image/png;base64,AAAA',
    );

    await user.click(screen.getByRole('button', { name: "I've stored the key" }));
    expect(screen.queryByText('secret-device-key-123')).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Key for/)).not.toBeInTheDocument();
  });

  it('keeps every key issued on the page until each is acknowledged', async () => {
    let n = 0;
    const { user } = setup({
      [PRE_POPULATE]: (init) => {
        n++;
        const id = (bodyOf(init).devices as Array<{ device_id: string }>)[0]!.device_id;
        return jsonResponse(201, {
          devices: [
            {
              id: `d${n}`,
              device_id: id,
              device_key: `key-${n}`,
              qr_code: 'data:image/png;base64,AAAA',
              adopted: false,
              owner_name: null,
            },
          ],
        });
      },
    });
    for (const id of ['PET-AAA1', 'PET-AAA2']) {
      await user.type(screen.getByLabelText('Device ID *'), id);
      await user.type(screen.getByLabelText('MAC Address *'), 'AABBCCDDEEFF');
      await user.click(screen.getByRole('button', { name: 'Pre-populate Device' }));
      await screen.findByLabelText(`Key for ${id}`);
    }
    expect(screen.getByLabelText('Key for PET-AAA1')).toHaveValue('key-1');
    expect(screen.getByLabelText('Key for PET-AAA2')).toHaveValue('key-2');
    const [newest] = screen.getAllByRole('button', { name: "I've stored the key" });
    await user.click(newest!);
    expect(screen.queryByLabelText('Key for PET-AAA2')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Key for PET-AAA1')).toHaveValue('key-1');
  });

  it('issues a new key for a collar after confirming, and shows it until acknowledged', async () => {
    const { calls, user } = setup({
      'POST /api/admin/devices/dev-1/rotate-key': () =>
        jsonResponse(200, {
          device: {
            id: 'dev-1',
            device_id: 'PET-NEW1',
            device_key: 'rotated-key',
            qr_code: 'data:image/png;base64,AAAA',
            adopted: false,
            owner_name: null,
          },
        }),
    });
    await user.click(await screen.findByRole('button', { name: 'New key for PET-NEW1' }));
    await user.click(screen.getByRole('button', { name: 'Issue New Key' }));
    expect(await screen.findByLabelText('Key for PET-NEW1')).toHaveValue('rotated-key');
    expect(screen.getByText(/previous key no longer works/)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.init.body).toBeUndefined();
  });

  it("shows the server's reason when pre-populating is refused", async () => {
    const { user } = setup({
      [PRE_POPULATE]: () => jsonResponse(409, { error: 'Device ID PET-AB12 already exists' }),
    });
    await user.type(screen.getByLabelText('Device ID *'), 'PET-AB12');
    await user.type(screen.getByLabelText('MAC Address *'), 'AABBCCDDEEFF');
    await user.click(screen.getByRole('button', { name: 'Pre-populate Device' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to pre-populate device', {
        description: 'Device ID PET-AB12 already exists',
      }),
    );
  });

  it('loads the fleet a page at a time, with the total', async () => {
    const page = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        makeDevice({ device_id: `PET-${String(from + i).padStart(4, '0')}` }),
      );
    const { user } = setup({
      'GET /api/devices/all': () => jsonResponse(200, { devices: page(0, 100), total: 102 }),
      'GET /api/devices/all?offset=100': () =>
        jsonResponse(200, { devices: page(100, 2), total: 102 }),
    });
    expect(await screen.findByText('Showing 100 of 102 devices')).toBeInTheDocument();
    expect(screen.getByText('102 devices, newest first.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more devices' }));
    expect(await screen.findByText('Showing 102 of 102 devices')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more devices' })).not.toBeInTheDocument();
  });

  it('lists every device newest first', async () => {
    setup();
    const list = await screen.findByRole('list', { name: 'Existing devices' });
    expect(list.textContent!.indexOf('PET-NEW1')).toBeLessThan(
      list.textContent!.indexOf('PET-OLD1'),
    );
    expect(list).toHaveClass('max-h-96');
  });
});
