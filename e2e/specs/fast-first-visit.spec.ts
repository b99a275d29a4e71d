import { expect, test } from '../support/fixtures';
import { bearer, loginAsAdmin, registerUser } from '../support/api';
import { signInWithToken } from '../support/app';

const HERO = 'Keep your dog safe from the heat with PawGuard';

test('the landing page arrives as HTML that holds the hero before any script runs', async ({
  request,
  browser,
}) => {
  const html = await (await request.get('/')).text();
  // React separates adjacent text with a comment: <h1>Keep … with <!-- -->PawGuard</h1>.
  expect(html.replace(/<!-- -->/g, '')).toContain(HERO);
  expect(html).toContain('id="features"');
  // script-src 'self': the prerendered page needs no inline script.
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

  // With JavaScript off entirely, the hero and the features are still there to read.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: HERO })).toBeVisible();
  await page.goto('/emergency');
  await expect(page.getByRole('heading', { level: 1, name: 'Emergency Vets' })).toBeVisible();
  await context.close();
});

test('the prerendered landing page comes alive: Join Waitlist opens the dialog', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Join Waitlist' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('a signed-in visitor never glimpses the landing page on the way to the dashboard', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  // From the very first frame, note whether the hero was ever shown.
  await page.addInitScript(() => {
    const w = window as unknown as { heroSeen: boolean };
    w.heroSeen = false;
    const check = () => {
      const hero = document.getElementById('hero-title');
      if (hero?.checkVisibility()) w.heroSeen = true;
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await signInWithToken(page, owner.token, '/');
  await expect(page.getByRole('heading', { level: 1, name: /Welcome/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Welcome/ })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { heroSeen: boolean }).heroSeen)).toBe(
    false,
  );
});

test('a returning owner’s dashboard asks for the session and the dogs once each, as the page loads', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('auth_token', value), owner.token);
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) asked.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  // The page starts them (public/session-hint.js) and the app takes them over, not asking again.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /Welcome/ })).toBeVisible();
  await expect(page.getByText(/Add your dog and put a collar on them/)).toBeVisible();
  // What was asked as the page loaded: until the dashboard showed, and before the live
  // stream opened (once it is open the app asks for the collars again, to miss nothing
  // between its first answer and the stream; the header polls some of these later on).
  const ticket = asked.indexOf('POST /api/stream/ticket');
  const untilShown = ticket < 0 ? [...asked] : asked.slice(0, ticket);
  for (const call of [
    'GET /api/auth/profile',
    'GET /api/dogs',
    'GET /api/devices',
    'GET /api/notifications/preferences',
  ])
    expect(
      untilShown.filter((a) => a === call),
      call,
    ).toHaveLength(1);
  // The build told the hint what to start and which chunks to preload.
  const hint = await (await request.get('/session-hint.js')).text();
  for (const part of ['/auth/profile', '/dogs', '/devices', 'modulepreload', '/assets/'])
    expect(hint, part).toContain(part);
  // And nothing of it is left on window, the token least of all.
  expect(
    await page.evaluate(() =>
      ['token', 'responses', 'pawguardEarlyRequests'].filter((k) => k in window),
    ),
  ).toEqual([]);
});

test('assets answer brotli or gzip as asked, cached long, behind the same security headers', async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeDefined();

  const br = await request.get(script!, { headers: { 'Accept-Encoding': 'br' } });
  expect(br.status()).toBe(200);
  expect(br.headers()['content-encoding']).toBe('br');
  expect(br.headers()['vary']).toMatch(/accept-encoding/i);
  expect(br.headers()['cache-control']).toContain('immutable');

  const gzip = await request.get(script!, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');

  const page = await request.get('/', { headers: { 'Accept-Encoding': 'br' } });
  expect(page.headers()['content-encoding']).toBe('br');
  expect(page.headers()['cache-control']).toBe('no-cache');
  expect(page.headers()['content-security-policy']).toContain("script-src 'self'");
});

test('a large API answer is compressed and never cached', async ({ request }) => {
  // Enough accounts that the admin's user list is well over 1 kB.
  for (let i = 0; i < 8; i++) await registerUser(request);
  const admin = await loginAsAdmin(request);
  const response = await request.get('/api/auth/users', {
    headers: { ...bearer(admin.token), 'Accept-Encoding': 'gzip' },
  });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-encoding']).toBe('gzip');
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(((await response.json()) as { users: unknown[] }).users.length).toBeGreaterThan(8);
});
