import { afterAll, beforeAll, it } from 'vitest';
import { bearer, createTestApp, seedUser, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '0.01' } }); });
afterAll(() => t.close());

it('probe', async () => {
  const r1 = await t.app.inject({ url: '/api/auth/profile' });
  console.log('401 headers', JSON.stringify(r1.headers));
  const r2 = await t.app.inject({ url: '/api/health' });
  console.log('health headers', JSON.stringify(r2.headers));
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) statuses.push((await t.app.inject({ url: '/api/auth/profile' })).statusCode);
  console.log('anon burst', statuses.join(','));
  const s2: number[] = [];
  for (let i = 0; i < 20; i++) s2.push((await t.app.inject({ url: '/api/nope' })).statusCode);
  console.log('404 burst', s2.join(','));
  const r3 = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c', password: 'x' } });
  console.log('login', r3.statusCode, r3.body, JSON.stringify(r3.headers));
  const r4 = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c', password: 'x' } });
  console.log('login2', r4.statusCode, r4.body, JSON.stringify(r4.headers));
  const routes = t.app.printRoutes({ commonPrefix: false, includeMeta: ['config'] });
  console.log(routes.slice(0, 3000));
});
