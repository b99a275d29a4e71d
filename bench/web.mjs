// The web app as a phone meets it: Lighthouse 12 (mobile preset, its default simulated
// throttling) in Debian's Chromium against the built app, on the landing page and /emergency
// as a new visitor and on an owner's dashboard signed in. Prints scores, LCP, TBT and the
// JavaScript each route loads, next to the budgets (DESIGN §9). Figures only, never pass/fail.
//
// CHROME_PATH (else CHROMIUM_PATH, else /usr/bin/chromium) names the browser; nothing is
// downloaded. `npm run bench:web -- --url http://host:port` measures a server already running.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { fmt, startServer } from './lib.mjs';

const BUDGETS = {
  landing: { score: 95, jsKb: 100 },
  emergency: { score: 95, jsKb: null },
  'signed in': { score: 90, jsKb: null },
};

async function registerOwner(base) {
  const email = `owner-${Date.now()}@bench.test`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password-1', name: 'Bench Owner' }),
  });
  if (!res.ok) throw new Error(`register answered ${res.status}`);
  const { token } = await res.json();
  for (const name of ['Biscuit', 'Luna', 'Max']) {
    await fetch(`${base}/api/dogs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, breed: 'Beagle', age: 3, weight: 22.5 }),
    });
  }
  return token;
}

/** Stores the session token in the browser profile, as a returning owner has it. */
async function signIn(port, base, token) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  const page = await browser.newPage();
  await page.goto(`${base}/emergency`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
  // Storage stays for the signed-in run; the HTTP cache goes, so it loads everything afresh.
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await page.close();
  await browser.disconnect();
}

function summarise(lhr) {
  if (lhr.runtimeError)
    throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id) => lhr.audits[id];
  const scripts = audit('resource-summary').details.items.find((i) => i.resourceType === 'script');
  return {
    score: Math.round(lhr.categories.performance.score * 100),
    fcp: audit('first-contentful-paint').numericValue,
    lcp: audit('largest-contentful-paint').numericValue,
    tbt: audit('total-blocking-time').numericValue,
    cls: audit('cumulative-layout-shift').numericValue,
    jsKb: (scripts?.transferSize ?? 0) / 1024,
    jsRequests: scripts?.requestCount ?? 0,
    unusedJsKb: (audit('unused-javascript').details?.overallSavingsBytes ?? 0) / 1024,
    compressionKb: (audit('uses-text-compression').details?.overallSavingsBytes ?? 0) / 1024,
  };
}

function print(name, path, r) {
  const budget = BUDGETS[name];
  const js = `JS ${fmt(r.jsKb)} kB in ${r.jsRequests} files${budget.jsKb ? ` (budget ≤ ${budget.jsKb} kB)` : ''}`;
  console.log(
    `web ${name.padEnd(9)} ${path.padEnd(10)} performance ${r.score} (budget ≥ ${budget.score}), ` +
      `FCP ${fmt(r.fcp / 1000, 2)} s, LCP ${fmt(r.lcp / 1000, 2)} s, TBT ${fmt(r.tbt, 0)} ms, ` +
      `CLS ${fmt(r.cls, 3)}, ${js}; unused JS ${fmt(r.unusedJsKb)} kB, ` +
      `text compression would save ${fmt(r.compressionKb)} kB`,
  );
}

export async function run(args = []) {
  const urlArg = args.indexOf('--url');
  const server = urlArg >= 0 ? null : await startServer();
  const base = server?.base ?? args[urlArg + 1].replace(/\/$/, '');
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    // Lighthouse's mobile defaults: Moto G Power screen, slow 4G, 4× CPU slowdown (simulated).
    const audit = async (path, keepStorage) =>
      summarise(
        (
          await lighthouse(`${base}${path}`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            disableStorageReset: keepStorage,
          })
        ).lhr,
      );
    print('landing', '/', await audit('/', false));
    print('emergency', '/emergency', await audit('/emergency', false));
    await signIn(chrome.port, base, await registerOwner(base));
    print('signed in', '/', await audit('/', true));
  } finally {
    chrome.kill();
    await server?.stop();
  }
}
