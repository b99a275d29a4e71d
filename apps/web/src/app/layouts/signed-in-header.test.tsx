import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { FakeEventSource, openFakeStream } from '@/testing/fake-event-source';
import { HEADER_POLL_MS, SignedInHeader } from './signed-in-header';

const prefs = (enabled: boolean) => ({
  preferences: {
    email_notifications_enabled: enabled,
    temperature_threshold: 85,
    critical_temperature_threshold: 105,
    email_frequency: 'immediate',
  },
});

let stop: (() => void) | null = null;

afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
});

function renderHeader(client = createQueryClient()) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <SignedInHeader user={makeUser({ name: 'Riley' })} onLogout={() => {}} loggingOut={false} />
        <main>
          <button type="button">On the page</button>
        </main>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return client;
}

describe('SignedInHeader', () => {
  it('closes the menu with Escape from its own button, and when focus moves on to the page', async () => {
    stubFetch({ 'GET /api/notifications/preferences': () => jsonResponse(200, prefs(true)) });
    renderHeader();
    const user = userEvent.setup();
    const menu = () => document.getElementById(toggle().getAttribute('aria-controls')!)!;
    const toggle = () => screen.getByRole('button', { name: /^(Open|Close) menu$/ });

    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(menu()).toBeVisible();
    await user.keyboard('{Escape}');
    expect(menu()).not.toBeVisible();
    expect(toggle()).toHaveFocus();
    expect(toggle()).toHaveAccessibleName('Open menu');

    await user.click(toggle());
    expect(menu()).toBeVisible();
    screen.getByRole('button', { name: 'On the page' }).focus();
    await act(async () => {});
    expect(menu()).not.toBeVisible();
  });

  it('polls the e-mail alert setting every 10 seconds, so the badge follows a change made elsewhere', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let enabled = true;
    const calls = stubFetch({
      'GET /api/notifications/preferences': () => jsonResponse(200, prefs(enabled)),
    });
    renderHeader();
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

  it('keeps polling the e-mail badge every 10 s while the live stream is open (it carries no preferences)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    FakeEventSource.reset();
    const calls = stubFetch({
      'GET /api/notifications/preferences': () => jsonResponse(200, prefs(true)),
    });
    const client = renderHeader();
    expect((await screen.findAllByText('Enabled')).length).toBeGreaterThan(0);
    stop = await openFakeStream(client);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    const before = calls.filter((c) => c.url.endsWith('/preferences')).length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(HEADER_POLL_MS * 3);
    });
    expect(calls.filter((c) => c.url.endsWith('/preferences')).length).toBeGreaterThanOrEqual(
      before + 3,
    );
  });
});
