import type { AdminDog, AdminUser, User } from '@pawguard/shared';

let seq = 0;
const id = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: id(),
    name: 'Riley Owner',
    email: `owner${seq}@example.com`,
    role: 'user',
    time_zone: 'Europe/London',
    // °C first and lbs: the order the screens used before units were a preference.
    temperature_unit: 'C',
    weight_unit: 'lbs',
    created_at: '2025-06-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeAdminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return { ...makeUser(), dogs_count: 0, ...overrides };
}

export function makeDog(overrides: Partial<AdminDog> = {}): AdminDog {
  return {
    id: id(),
    user_id: id(),
    name: 'Biscuit',
    breed: 'Beagle',
    age: 3,
    weight: 22.5,
    medical_info: null,
    emergency_contact: null,
    sex: null,
    body_condition: null,
    health_conditions: [],
    created_at: '2025-06-02T10:00:00.000Z',
    updated_at: '2025-06-02T10:00:00.000Z',
    owner_name: 'Riley Owner',
    owner_email: 'owner@example.com',
    ...overrides,
  };
}

/** A fetch stub answering JSON per "METHOD /api/path"; unknown calls answer 404. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? '' : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export type Routes = Record<string, (init: RequestInit) => Response | Promise<Response>>;

export function stubFetch(routes: Routes) {
  const calls: { method: string; url: string; init: RequestInit }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input.toString();
    const method = init.method ?? 'GET';
    calls.push({ method, url, init });
    const handler = routes[`${method} ${url}`];
    return handler ? handler(init) : jsonResponse(404, { error: 'Not found' });
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}
