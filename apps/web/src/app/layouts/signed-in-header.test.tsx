import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { HEADER_POLL_MS, SignedInHeader } from './signed-in-header';

const prefs = (enabled: boolean) => ({
  preferences: {
    email_notifications_enabled: enabled,
    temperature_threshold: 85,
    critical_temperature_threshold: 105,
    email_frequency: 'immediate',
  },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('SignedInHeader', () => {
  it('polls the e-mail alert setting every 10 seconds, so the badge follows a change made elsewhere', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let enabled = true;
    const calls = stubFetch({
      'GET /api/notifications/preferences': () => jsonResponse(200, prefs(enabled)),
    });
    render(
      <MemoryRouter>
        <QueryClientProvider client={createQueryClient()}>
          <SignedInHeader
            user={makeUser({ name: 'Riley' })}
            onLogout={() => {}}
            loggingOut={false}
          />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect((await screen.findAllByText('Enabled')).length).toBeGreaterThan(0);
    const before = calls.length;

    enabled = false;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(HEADER_POLL_MS);
    });
    expect((await screen.findAllByText('Disabled')).length).toBeGreaterThan(0);
    expect(calls.length).toBeGreaterThan(before);
    expect(HEADER_POLL_MS).toBe(10_000);
  });
});
