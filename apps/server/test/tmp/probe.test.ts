import { afterAll, beforeAll, it } from 'vitest';
import { bearer, createTestApp, seedUser, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(() => t.close());

it('probe', async () => {
  const u = await seedUser(t);
  const cases: Array<[string, string, unknown, Record<string,string>?]> = [
    ['POST', '/api/auth/register', { email: 'a@b.co', password: 'x'.repeat(9) }],
    ['POST', '/api/auth/register', { email: 'a@b.co', password: 12345678, name: 'n' }],
    ['POST', '/api/auth/register', { email: 'a@b.co', password: 'x'.repeat(9), name: 'n', role: 'admin' }],
    ['POST', '/api/auth/register', { email: 'a@b.co', password: 'x'.repeat(9), name: 'n', role: 'admin', id: 'x' }],
    ['POST', '/api/auth/register', { email: 'a@b.co', password: 'x'.repeat(9), name: 'n'.repeat(101) }],
    ['POST', '/api/auth/register', { email: 'notanemail', password: 'x'.repeat(9), name: 'n' }],
    ['POST', '/api/auth/register', { email: 'a@b.co', password: 'short', name: 'n' }],
    ['POST', '/api/auth/register', '{bad json', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', undefined, { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', '', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', 'hello', { 'content-type': 'text/plain' }],
    ['POST', '/api/auth/register', [1,2]],
    ['POST', '/api/auth/register', 'null', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', '"str"', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', '{"__proto__":{"x":1}}', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', '{"constructor":{"prototype":{"x":1}}}', { 'content-type': 'application/json' }],
    ['POST', '/api/auth/register', undefined],
    ['POST', '/api/dogs', { name: 'Rex', age: 1.5 }],
    ['POST', '/api/dogs', { name: 'Rex', age: '3' }],
    ['POST', '/api/dogs', { name: 'Rex', weight: 0 }],
    ['POST', '/api/dogs', { name: '' }],
    ['POST', '/api/dogs', { }],
    ['POST', '/api/dogs', { name: 'Rex', breed: 5 }],
    ['POST', '/api/dogs', { name: 'Rex', breed: 'b'.repeat(101) }],
    ['PUT', '/api/dogs/not-a-uuid', { name: 'Rex' }],
    ['DELETE', '/api/dogs/not-a-uuid', undefined],
    ['DELETE', '/api/dogs/00000000-0000-4000-8000-000000000000?id=1&id=2', undefined],
    ['PUT', '/api/notifications/preferences', { email_notifications_enabled: true, temperature_threshold: 60, critical_temperature_threshold: 105, email_frequency: 'immediate' }],
    ['PUT', '/api/notifications/preferences', { email_notifications_enabled: true, temperature_threshold: 80, critical_temperature_threshold: 105, email_frequency: 'weekly' }],
    ['PUT', '/api/notifications/preferences', { email_notifications_enabled: 'yes', temperature_threshold: 80, critical_temperature_threshold: 105, email_frequency: 'daily' }],
    ['PUT', '/api/notifications/preferences', { temperature_threshold: 80, critical_temperature_threshold: 105, email_frequency: 'daily' }],
    ['POST', '/api/auth/logout', { x: 1 }],
    ['POST', '/api/auth/logout', undefined, { 'content-type': 'application/json' }],
    ['GET', '/api/auth/profile?token=abc', undefined],
    ['GET', '/api/nope', undefined],
    ['POST', '/api/dogs', { name: 'x'.repeat(200*1024) }],
    ['POST', '/api/dogs', '{"name":"a","name":"b"}', { 'content-type': 'application/json' }],
    ['GET', '/api/auth/confirm/abc?x=1', undefined],
  ];
  for (const [method, url, payload, headers] of cases) {
    const res = await t.app.inject({ method: method as 'GET', url, headers: { ...bearer(u.token), ...(headers ?? {}) }, ...(payload === undefined ? {} : typeof payload === 'string' ? { body: payload } : { payload: payload as object }) });
    console.log(method, url.slice(0,60), JSON.stringify(payload)?.slice(0, 60), '=>', res.statusCode, res.headers['content-type'], res.body.slice(0, 200));
  }
  console.log(Object.keys({}).length, ({} as any).x);
});
