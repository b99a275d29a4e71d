import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { register } from './register';

describe('creating an account', () => {
  afterEach(() => vi.restoreAllMocks());

  it("sends the browser's time zone and units with it, so no second call has to store them", async () => {
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      ...new Intl.DateTimeFormat('en-US').resolvedOptions(),
      timeZone: 'Europe/Berlin',
    });
    const user = makeUser({ time_zone: 'Europe/Berlin' });
    const calls = stubFetch({
      'POST /api/auth/register': () => jsonResponse(201, { token: 'new-token', user }),
    });
    await register({ name: 'Alex', email: 'alex@example.test', password: 'long-enough' });
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      name: 'Alex',
      email: 'alex@example.test',
      password: 'long-enough',
      time_zone: 'Europe/Berlin',
      // jsdom's browser speaks en-US: °F first and lbs.
      temperature_unit: 'F',
      weight_unit: 'lbs',
    });
  });

  it('sends °C and kg from a browser whose locale measures in them', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    const calls = stubFetch({
      'POST /api/auth/register': () =>
        jsonResponse(201, { token: 'new-token', user: makeUser({ temperature_unit: 'C' }) }),
    });
    await register({ name: 'Alex', email: 'alex@example.test', password: 'long-enough' });
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({
      temperature_unit: 'C',
      weight_unit: 'kg',
    });
  });
});
