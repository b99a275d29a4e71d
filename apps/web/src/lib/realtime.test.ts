import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { createQueryClient } from '@/lib/query-client';
import { ApiError } from '@/lib/api-client';
import { makeDevice, makeReading } from '@/testing/devices';
import { FakeEventSource, fakeStreamOptions, sendReading } from '@/testing/fake-event-source';
import { jsonResponse, stubFetch } from '@/testing/fixtures';
import { getDevicesQueryOptions } from './api/get-devices';
import { startLiveStream, useLiveFallback, useLiveStatus } from './realtime';

let stop: (() => void) | null = null;

beforeEach(() => FakeEventSource.reset());
afterEach(() => {
  stop?.();
  stop = null;
});

const settle = () => act(async () => {});

describe('the live stream', () => {
  it('opens with a fresh ticket and says it is live once open', async () => {
    const { result } = renderHook(() => useLiveStatus());
    const { options, tickets } = fakeStreamOptions();
    act(() => {
      stop = startLiveStream(createQueryClient(), options);
    });
    expect(result.current).toBe('connecting');
    await settle();
    expect(FakeEventSource.latest.url).toBe('/api/stream?ticket=ticket-1');
    expect(tickets).toEqual(['ticket-1']);
    act(() => FakeEventSource.latest.open());
    expect(result.current).toBe('live');
  });

  it('asks the server for the ticket with the session token', async () => {
    localStorage.setItem('auth_token', 'tok');
    const calls = stubFetch({
      'POST /api/stream/ticket': () => jsonResponse(200, { ticket: 'abc' }),
    });
    stop = startLiveStream(createQueryClient(), {
      openSource: (url) => new FakeEventSource(url) as unknown as EventSource,
    });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    expect(FakeEventSource.latest.url).toBe('/api/stream?ticket=abc');
    expect(new Headers(calls[0]?.init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('writes reading events into the query cache', async () => {
    const queryClient = createQueryClient();
    const device = makeDevice({ temperature_celsius: 20 });
    queryClient.setQueryData(getDevicesQueryOptions().queryKey, [device]);
    const { options } = fakeStreamOptions();
    stop = startLiveStream(queryClient, options);
    await settle();
    const reading = makeReading({ temperature: 38.2 });
    sendReading(device.id, reading);
    expect(
      queryClient.getQueryData(getDevicesQueryOptions().queryKey)?.[0]?.temperature_celsius,
    ).toBe(38.2);
  });

  it('ignores an event that does not match the contract', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { options } = fakeStreamOptions();
    stop = startLiveStream(createQueryClient(), options);
    await settle();
    FakeEventSource.latest.emit('reading', { type: 'reading', device: 42 });
    expect(warn).toHaveBeenCalledWith('Ignored a live reading event', expect.anything());
  });

  it('on an error closes the connection, takes a new ticket and reopens (a ticket is single-use)', async () => {
    const { result } = renderHook(() => useLiveStatus());
    const { options, tickets } = fakeStreamOptions();
    stop = startLiveStream(createQueryClient(), options);
    await settle();
    const first = FakeEventSource.latest;
    act(() => first.open());
    act(() => first.fail());
    expect(first.closed).toBe(true);
    expect(result.current).toBe('down');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(tickets).toEqual(['ticket-1', 'ticket-2']);
    expect(FakeEventSource.latest.url).toBe('/api/stream?ticket=ticket-2');
    act(() => FakeEventSource.latest.open());
    expect(result.current).toBe('live');
  });

  it('resumes from the last event it received, so the server replays what was missed', async () => {
    const queryClient = createQueryClient();
    const device = makeDevice();
    const { options } = fakeStreamOptions();
    stop = startLiveStream(queryClient, options);
    await settle();
    act(() => FakeEventSource.latest.open());
    queryClient.setQueryData(getDevicesQueryOptions().queryKey, [device], {
      updatedAt: Date.now() - 30_000,
    });
    act(() => sendReading(device.id, makeReading(), 'b00t.41'));
    act(() => FakeEventSource.latest.fail());
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    expect(FakeEventSource.latest.url).toBe('/api/stream?ticket=ticket-2&last_event_id=b00t.41');
    act(() => FakeEventSource.latest.open());
    // The replay covers the gap: nothing is fetched again on that account.
    expect(queryClient.getQueryState(getDevicesQueryOptions().queryKey)?.isInvalidated).toBe(false);
  });

  it('fetches again what was loaded before the connection opened, to cover the gap', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(getDevicesQueryOptions().queryKey, [makeDevice()], {
      updatedAt: Date.now() - 60_000,
    });
    const { options } = fakeStreamOptions();
    stop = startLiveStream(queryClient, options);
    await settle();
    act(() => FakeEventSource.latest.open());
    expect(queryClient.getQueryState(getDevicesQueryOptions().queryKey)?.isInvalidated).toBe(true);
  });

  it('keeps retrying while the ticket call fails, and stops when the session is refused', async () => {
    let calls = 0;
    stop = startLiveStream(createQueryClient(), {
      fetchTicket: async () => {
        calls += 1;
        throw new ApiError(
          calls < 3 ? 'Network error' : 'Authentication required.',
          calls < 3 ? 0 : 401,
        );
      },
      openSource: (url) => new FakeEventSource(url) as unknown as EventSource,
      retryDelayMs: () => 0,
    });
    await waitFor(() => expect(calls).toBe(3));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(3);
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  it('waits, polling, when a newer tab took its stream over, and takes it back once shown again', async () => {
    const { result } = renderHook(() => ({
      status: useLiveStatus(),
      poll: useLiveFallback(10_000),
    }));
    const { options } = fakeStreamOptions();
    stop = startLiveStream(createQueryClient(), options);
    await settle();
    act(() => FakeEventSource.latest.open());
    act(() => {
      FakeEventSource.latest.emit('superseded', {});
      FakeEventSource.latest.fail();
    });
    // No prompt retry (the fake's retries take no time): it would close another tab's stream.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(result.current).toEqual({ status: 'down', poll: 10_000 });
    // The owner looks at this tab again: it is live again at once.
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
    act(() => FakeEventSource.latest.open());
    expect(result.current.status).toBe('live');
  });

  it('closes at stop, and polling takes over again', async () => {
    const { result } = renderHook(() => ({
      status: useLiveStatus(),
      poll: useLiveFallback(10_000),
    }));
    const { options } = fakeStreamOptions();
    stop = startLiveStream(createQueryClient(), options);
    await settle();
    act(() => FakeEventSource.latest.open());
    expect(result.current).toEqual({ status: 'live', poll: undefined });
    act(() => {
      stop?.();
      stop = null;
    });
    expect(FakeEventSource.latest.closed).toBe(true);
    expect(result.current).toEqual({ status: 'off', poll: 10_000 });
  });
});
