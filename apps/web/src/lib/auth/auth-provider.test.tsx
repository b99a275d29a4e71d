import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { authToken } from '@/lib/auth-token';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { AuthProvider } from './auth-provider';
import { useAuth } from './use-auth';

function Who() {
  const { user } = useAuth();
  return (
    <p>
      {user
        ? `zone: ${user.time_zone ?? 'none'}, units: ${user.temperature_unit ?? '-'} ${user.weight_unit ?? '-'}`
        : 'signed out'}
    </p>
  );
}

const zoneOfBrowser = (timeZone: string) =>
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
    ...new Intl.DateTimeFormat('en-US').resolvedOptions(),
    timeZone,
  });

describe("the account's time zone and units (DESIGN §3 Display)", () => {
  beforeEach(() => authToken.set('owner-token'));
  afterEach(() => {
    authToken.clear();
    vi.restoreAllMocks();
  });

  it("sends the browser's time zone and units for whichever the account has none of", async () => {
    zoneOfBrowser('America/New_York');
    const user = makeUser({ time_zone: null, temperature_unit: null, weight_unit: 'kg' });
    const calls = stubFetch({
      'GET /api/auth/profile': () => jsonResponse(200, { user }),
      'PUT /api/auth/profile/preferences': (init) =>
        jsonResponse(200, { user: { ...user, ...JSON.parse(String(init.body)) } }),
    });
    render(
      <AuthProvider>
        <Who />
      </AuthProvider>,
    );
    // The profile, the session API and the save each take a turn: generous on a busy machine.
    expect(
      await screen.findByText('zone: America/New_York, units: F kg', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const put = calls.filter((c) => c.method === 'PUT');
    expect(put).toHaveLength(1);
    // The stored weight unit is the owner's: left alone.
    expect(JSON.parse(String(put[0]!.init.body))).toEqual({
      time_zone: 'America/New_York',
      temperature_unit: 'F',
    });
  });

  it('stores the units all the same when the server refuses the browser’s time zone', async () => {
    zoneOfBrowser('Mars/Olympus_Mons');
    const user = makeUser({ time_zone: null, temperature_unit: null, weight_unit: null });
    const calls = stubFetch({
      'GET /api/auth/profile': () => jsonResponse(200, { user }),
      'PUT /api/auth/profile/preferences': (init) => {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        return 'time_zone' in body
          ? jsonResponse(400, { error: 'time_zone must be an IANA time zone name' })
          : jsonResponse(200, { user: { ...user, ...body } });
      },
    });
    render(
      <AuthProvider>
        <Who />
      </AuthProvider>,
    );
    expect(
      await screen.findByText('zone: none, units: F lbs', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    // Long enough for a repeat of the refused zone to show.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const bodies = calls
      .filter((c) => c.method === 'PUT')
      .map((c) => JSON.parse(String(c.init.body)) as unknown);
    expect(bodies).toEqual([
      { temperature_unit: 'F', weight_unit: 'lbs', time_zone: 'Mars/Olympus_Mons' },
      { temperature_unit: 'F', weight_unit: 'lbs' },
    ]);
  });

  it('leaves a stored time zone and units alone', async () => {
    zoneOfBrowser('America/New_York');
    const calls = stubFetch({
      'GET /api/auth/profile': () =>
        jsonResponse(200, { user: makeUser({ time_zone: 'Europe/Berlin' }) }),
    });
    render(
      <AuthProvider>
        <Who />
      </AuthProvider>,
    );
    expect(await screen.findByText('zone: Europe/Berlin, units: C lbs')).toBeInTheDocument();
    // Long enough for the call the first test sees (it comes within a few milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });
});
