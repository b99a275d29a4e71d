// `npm run bench:alerts [-- --quick | --seed N] [--json [--out FILE]]`: heat alerts an owner would
// get from realistic collar traces (tools/collar-sim: a week in a dog's life, and dangerous
// episodes), run through the real ingest path of the server built in process on a fresh SQLite
// DATA_DIR, with the server's clock moved along the trace. Prints, for each dog and benign week,
// the model's own heat alerts per pet-week (those the owner's thresholds had no part in) with
// the budget's verdict on them (decision 0035), beside the thresholds' alerts and all of them by
// level with their leading reasons; for each episode the time to the first alert and the level
// reached, beside what the owner's thresholds alone would have done; then the budgets in a few
// lines. Figures, never pass/fail: "OVER BUDGET" marks a figure past its budget.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { BENIGN_WEEKS, DOG_PROFILES, PROFILE_KEYS, generateWeek } from '@pawguard/collar-sim/week';
import { EPISODE_KEYS, generateEpisode } from '@pawguard/collar-sim/episodes';
import { readingsOf } from '@pawguard/collar-sim/life';
import {
  collarOnPet,
  heatAlerts,
  levelRank,
  minuteAt,
  replay,
  storedLevel,
  thresholdAlerts,
} from '@pawguard/collar-sim/replay';
import { BENCH_ADMIN as ADMIN, fmt, met, root } from './lib.mjs';

const OWNER = { email: 'owner@bench.test', password: 'bench-owner-password', name: 'Owner' };
const LEVELS = ['WARNING', 'DANGER', 'CRITICAL'];
/** Budgets (issue "Heat alerts an owner can trust"). */
const BUDGET = { benignPerWeek: 1, parkedCarMin: 5, exertionMin: 10 };
const MIN = 60_000;
const DAY = 86_400_000;

/** The server in process: its app on a fresh DATA_DIR, and a clock the replay moves. */
async function startApp() {
  const { buildApp } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config/env.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-alerts-'));
  // The present until the replay moves it to the traces' days. Access tokens are verified
  // against the machine's time, so every sign-in happens before the clock is moved.
  let now = Date.now();
  const clock = {
    now: () => new Date(now),
    set: (at) => (now = at),
  };
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_MULTIPLIER: '100000',
    JWT_SECRET: 'bench-secret-that-is-long-enough-0123456789abcdef',
  });
  const app = await buildApp({ config, clock, startWorkers: false, logStream: devNull() });
  await app.ready();
  const api = async ({ method, url, token, deviceKey, body }) => {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (deviceKey) headers.authorization = `Device ${deviceKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await app.inject({
      method,
      url,
      headers,
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  return {
    api,
    clock,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Where the server's logs go: nowhere (the bench prints figures). */
const devNull = () => new Writable({ write: (_chunk, _encoding, done) => done() });

async function signIn(api, account) {
  const res = await api({ method: 'POST', url: '/api/auth/login', body: account });
  if (res.status !== 200) throw new Error(`sign-in of ${account.email} answered ${res.status}`);
  return res.body;
}

/** One seed's run: every dog's mild, warm and hot week and every episode, in one server. */
async function runSeed(seed) {
  const server = await startApp();
  try {
    // The traces' days end before today, so the server takes every reading as the past; a
    // trace is the same from whichever midnight it starts.
    const start = Math.floor(Date.now() / DAY) * DAY - 14 * DAY;
    const weeks = PROFILE_KEYS.flatMap((key) =>
      BENIGN_WEEKS.map((kind) => ({
        key,
        kind,
        trace: generateWeek({ profile: DOG_PROFILES[key], kind, seed, start }),
      })),
    );
    const episodes = EPISODE_KEYS.map((key) => generateEpisode(key, seed, start));
    // Set up as the app is used: the admin's collars, the owner's pets.
    const { api, clock } = server;
    const admin = await signIn(api, ADMIN);
    const reg = await api({ method: 'POST', url: '/api/auth/register', body: OWNER });
    if (reg.status !== 201) throw new Error(`register answered ${reg.status}`);
    const owner = { token: reg.body.token, userId: reg.body.user.id };
    for (const w of weeks) w.collar = await collarOnPet(api, admin.token, owner, w.trace.profile);
    for (const e of episodes) e.collar = await collarOnPet(api, admin.token, owner, e.profile);
    // What each collar sends, taken once from its trace.
    for (const t of [...weeks.map((w) => w.trace), ...episodes]) t.readings = readingsOf(t.minutes);
    const items = [
      ...weeks.map((w) => ({ collar: w.collar, readings: w.trace.readings })),
      // From a little before the danger on, one reading a request as it is taken, so the
      // server's times of escalation are the readings' own.
      ...episodes.map((e) => ({
        collar: e.collar,
        readings: e.readings,
        singleFrom: e.dangerAt - 30 * MIN,
      })),
    ];
    const t0 = performance.now();
    // The level each single reading put its collar at, for the minutes to each level.
    const levels = new Map(episodes.map((e) => [e.collar.id, []]));
    const posted = await replay(api, clock, items, {
      onSingle: (collar, reading, stored) =>
        levels.get(collar.id)?.push({ at: reading.timestamp, level: storedLevel(stored) }),
    });
    const seconds = (performance.now() - t0) / 1000;
    // The owner reads the alerts afterwards.
    const token = owner.token;
    const weekResults = [];
    for (const w of weeks) {
      const alerts = await heatAlerts(api, token, w.collar);
      const alone = thresholdAlerts(w.trace.readings).map((a) => ({
        ...a,
        collar: minuteAt(w.trace.minutes, a.openedAt)?.collar ?? null,
      }));
      weekResults.push({
        profile: w.key,
        week: w.kind,
        seed,
        alerts: alerts.map((a) => describeAlert(a, w.trace.minutes, alone)),
        thresholdAlerts: alone,
      });
    }
    const episodeResults = [];
    for (const e of episodes) {
      const alerts = await heatAlerts(api, token, e.collar);
      episodeResults.push(episodeFigures(e, alerts, levels.get(e.collar.id), seed));
    }
    return { seed, posted, seconds, weekResults, episodeResults };
  } finally {
    await server.close();
  }
}

/**
 * An alert with what the dog (and its collar) was doing when it opened, and whether it is the
 * model's alone: the owner's thresholds alone had no alert open at any time while it was.
 */
function describeAlert(a, minutes, alone) {
  const at = Date.parse(a.reading_at ?? a.opened_at);
  const until = a.resolved_reading_at ? Date.parse(a.resolved_reading_at) : Infinity;
  const m = minuteAt(minutes, at);
  return {
    readingAt: new Date(at).toISOString(),
    level: a.level,
    reasons: a.reasons,
    behaviour: m?.behaviour ?? null,
    collar: m?.collar ?? null,
    modelOnly: !alone.some((t) => t.openedAt <= until && (t.resolvedAt ?? Infinity) >= at),
  };
}

/** The highest level of these alerts, or null when there are none. */
const highestLevel = (alerts) =>
  alerts.reduce((h, a) => (levelRank(a.level) > levelRank(h) ? a.level : h), null);

function episodeFigures(e, alerts, levels, seed) {
  const from = e.dangerAt;
  const end = e.minutes.at(-1).at;
  const opened = (a) => Date.parse(a.reading_at ?? a.opened_at);
  const resolved = (a) => (a.resolved_reading_at ? Date.parse(a.resolved_reading_at) : Infinity);
  // Open at or after the danger: opened since, or still open when it started.
  const during = alerts.filter((a) => opened(a) >= from || resolved(a) > from);
  const first = during[0];
  const firstMin = first ? Math.max(0, (opened(first) - from) / MIN) : null;
  const highest = highestLevel(during);
  const top = during.find((a) => a.level === highest);
  const topAt = top ? Date.parse(top.escalated_at ?? top.reading_at ?? top.opened_at) : null;
  const alone = thresholdAlerts(e.readings);
  const aloneDuring = alone.filter((a) => a.openedAt >= from || (a.resolvedAt ?? Infinity) > from);
  const aloneHighest = highestLevel(aloneDuring);
  // Minutes from the danger to the first reading at each level or above.
  const toLevel = Object.fromEntries(
    LEVELS.map((l) => {
      const hit = levels.find((r) => r.at >= from && levelRank(r.level) >= levelRank(l));
      return [l, hit ? (hit.at - from) / MIN : null];
    }),
  );
  return {
    key: e.key,
    toLevel,
    label: e.label,
    seed,
    kind: e.kind,
    budgetMinutes: e.budgetMinutes,
    minutesAfterDanger: (end - from) / MIN,
    leadInAlerts: alerts.filter((a) => opened(a) < from && resolved(a) <= from).length,
    firstAlertMin: firstMin,
    openBeforeDanger: first ? opened(first) < from : false,
    highest,
    highestAtMin: topAt === null ? null : Math.max(0, (topAt - from) / MIN),
    reasons: first?.reasons ?? [],
    thresholds: {
      firstAlertMin: aloneDuring[0] ? Math.max(0, (aloneDuring[0].openedAt - from) / MIN) : null,
      highest: aloneHighest,
    },
  };
}

/** "heat index N °C at the collar": a reason without its numbers, to count alike ones. */
const reasonKind = (r) =>
  r
    .replace(/-?\d+(\.\d+)?/g, 'N')
    .replace(/about N× the risk/, '')
    .trim();

function count(values) {
  const m = new Map();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
}

const pad = (s, n) => String(s).padEnd(n);
const padL = (s, n) => String(s).padStart(n);

/** A benign week's figures per pet-week, over its seeds. */
function weekFigures(rs) {
  const alerts = rs.flatMap((r) => r.alerts);
  const per = (n) => n / rs.length;
  const isOff = (a) => a.collar && a.collar !== 'worn';
  const alone = rs.flatMap((r) => r.thresholdAlerts);
  return {
    alerts,
    total: per(alerts.length),
    modelOnly: per(alerts.filter((a) => a.modelOnly).length),
    byLevel: LEVELS.map((l) => per(alerts.filter((a) => a.level === l).length)),
    off: per(alerts.filter(isOff).length),
    // An off collar's alert the thresholds had no part in would be the model's: never allowed.
    offByModel: per(alerts.filter((a) => isOff(a) && a.modelOnly).length),
    alone: per(alone.length),
    aloneOff: per(alone.filter(isOff).length),
    perSeed: rs.map((r) => r.alerts.filter((a) => a.modelOnly).length),
  };
}

/** The budget applies to the model's own share on mild and warm weeks. */
const budgeted = (week) => week !== 'hot';

function printWeeks(results, seeds) {
  console.log(
    `\nheat alerts on benign weeks: per pet-week (mean of ${seeds.length} seed${seeds.length > 1 ? 's' : ''}: ${seeds.join(', ')}). ` +
      `model: the model's own alerts, during which the owner's thresholds alone had none open; the budget (≤ ${BUDGET.benignPerWeek} a pet-week on mild and warm weeks, decision 0035) is judged on it. ` +
      "thresholds: the alerts during which the owner's thresholds had one open (their hard limits, shown, never counted against the model); all: every heat alert the owner got, by the highest level each reached; " +
      'off: opened while the collar was off the dog; thresholds alone: the alerts the thresholds would raise without the model',
  );
  console.log(
    `${pad('dog', 34)}${pad('week', 6)}${padL('model', 6)}  ${pad('budget', 20)}${padL('thresholds', 10)}${padL('all', 6)}${padL('WARN', 6)}${padL('DANG', 6)}${padL('CRIT', 6)}${padL('off', 5)}  ${pad('thresholds alone', 17)}while`,
  );
  const rows = [];
  for (const key of PROFILE_KEYS)
    for (const week of BENIGN_WEEKS) {
      const rs = results.filter((r) => r.profile === key && r.week === week);
      const f = weekFigures(rs);
      const verdict = !budgeted(week)
        ? 'no budget (hot)'
        : f.modelOnly <= BUDGET.benignPerWeek
          ? `≤ ${BUDGET.benignPerWeek}: met`
          : `≤ ${BUDGET.benignPerWeek}: OVER BUDGET`;
      const marks = [];
      if (f.offByModel > 0) marks.push('OVER BUDGET: the model alerted on a collar that is off');
      else if (f.off > 0) marks.push("collar off: the thresholds' DANGER/CRITICAL (decision 0034)");
      const during = count(f.alerts.map((a) => (a.collar === 'worn' ? a.behaviour : a.collar)))
        .map(([k, n]) => `${k} ${fmt(n / rs.length, 1)}`)
        .join(', ');
      console.log(
        `${pad(DOG_PROFILES[key].label, 34)}${pad(week, 6)}${padL(fmt(f.modelOnly), 6)}  ${pad(verdict, 20)}${padL(fmt(f.total - f.modelOnly), 10)}${padL(fmt(f.total), 6)}${f.byLevel.map((n) => padL(fmt(n), 6)).join('')}${padL(fmt(f.off), 5)}  ${pad(`${fmt(f.alone)} (${fmt(f.aloneOff)} off)`, 17)}${during || '-'}${marks.length ? `  ${marks.join('; ')}` : ''}`,
      );
      rows.push({ key, week, alerts: f.alerts });
    }
  console.log(
    '\nleading reasons (first reason of each alert, numbers as N; count per pet-week; [model]: its own, [thresholds]: with the thresholds open):',
  );
  for (const { key, week, alerts } of rows) {
    if (!alerts.length) continue;
    const top = count(
      alerts.map(
        (a) => `[${a.modelOnly ? 'model' : 'thresholds'}] ${reasonKind(a.reasons[0] ?? '(none)')}`,
      ),
    )
      .slice(0, 3)
      .map(([r, n]) => `${fmt(n / seeds.length)} ${r}`)
      .join(' | ');
    console.log(`  ${pad(`${DOG_PROFILES[key].label}, ${week}`, 42)}${top}`);
  }
}

/** The budgets in a few lines: the model's share on mild and warm weeks, off collars, episodes. */
function printBudgets(weeks, episodes, seeds) {
  console.log('\nbudgets:');
  const cells = PROFILE_KEYS.flatMap((key) =>
    BENIGN_WEEKS.filter(budgeted).map((week) => {
      const f = weekFigures(weeks.filter((r) => r.profile === key && r.week === week));
      return { key, week, ...f };
    }),
  );
  const over = cells.filter((c) => c.modelOnly > BUDGET.benignPerWeek);
  const top = cells.reduce((a, b) => (b.modelOnly > a.modelOnly ? b : a));
  const worstSeed = Math.max(...cells.flatMap((c) => c.perSeed));
  console.log(
    `  model's own alerts on mild and warm weeks ≤ ${BUDGET.benignPerWeek} a pet-week, every dog: ${met(!over.length)} ` +
      `(${cells.length - over.length} of ${cells.length} dog-weeks; highest ${fmt(top.modelOnly)}: ${DOG_PROFILES[top.key].label}, ${top.week}; ` +
      `at most ${worstSeed} in any one seed's week)`,
  );
  const thresholds = cells.map((c) => c.total - c.modelOnly);
  console.log(
    `  beside it, the owner's thresholds (hard limits, not counted against the model): ${fmt(Math.min(...thresholds))}–${fmt(Math.max(...thresholds))} a pet-week on mild and warm weeks; ` +
      `all heat alerts ${fmt(Math.min(...cells.map((c) => c.total)))}–${fmt(Math.max(...cells.map((c) => c.total)))}`,
  );
  const all = PROFILE_KEYS.flatMap((key) =>
    BENIGN_WEEKS.map((week) => ({
      where: `${DOG_PROFILES[key].label}, ${week}`,
      ...weekFigures(weeks.filter((r) => r.profile === key && r.week === week)),
    })),
  );
  const offByModel = all.reduce((n, f) => n + f.offByModel, 0);
  const offByThresholds = all
    .filter((f) => f.off > f.offByModel)
    .map((f) => `${f.where} ${fmt(f.off - f.offByModel)}`);
  console.log(
    `  no heat alert from the model on a collar that is off: ${met(offByModel === 0)} (${fmt(offByModel)} a pet-week); ` +
      `the thresholds' DANGER/CRITICAL on an off collar, hard limits by decision 0034: ${offByThresholds.join(', ') || 'none'}`,
  );
  const range = (xs) => {
    const v = xs.filter((x) => x !== null);
    return v.length ? `${fmt(Math.min(...v), 0)}–${fmt(Math.max(...v), 0)} min` : 'none';
  };
  for (const [kind, words] of [
    ['parked-car', 'parked car'],
    ['exertion', 'exertion in the heat'],
    ['hot-room', 'hot room'],
  ]) {
    const rs = episodes.filter((e) => e.kind === kind);
    if (!rs.length) continue;
    const ok = rs.every(
      (e) =>
        e.firstAlertMin !== null &&
        (e.budgetMinutes === null || e.firstAlertMin <= e.budgetMinutes),
    );
    const budget = rs[0].budgetMinutes === null ? 'alerted' : `≤ ${rs[0].budgetMinutes} min`;
    const open = rs.filter((e) => e.openBeforeDanger).length;
    console.log(
      `  ${words} ${budget}, seeds ${seeds.join(', ')}: ${met(ok)} (first alert ${range(rs.map((e) => e.firstAlertMin))}` +
        `${open ? `, ${open} of ${rs.length} already open from the lead-in` : ''}; DANGER ${range(rs.map((e) => e.toLevel.DANGER))}; CRITICAL ${range(rs.map((e) => e.toLevel.CRITICAL))})`,
    );
  }
}

function printEpisodes(results) {
  console.log(
    '\ndangerous episodes: minutes from the start of the danger to the first heat alert, to the first reading at WARNING / DANGER / CRITICAL or above, the highest level of the alert; beside the thresholds alone',
  );
  console.log(
    `${pad('episode', 48)}${pad('seed', 5)}${padL('first', 6)}  ${pad('W / D / C', 13)}${pad('highest', 10)}${pad('thresholds alone', 22)}${pad('lead-in', 8)}budget`,
  );
  for (const r of results) {
    const first =
      r.firstAlertMin === null
        ? 'none'
        : `${fmt(r.firstAlertMin, 0)}${r.openBeforeDanger ? '*' : ''}`;
    const highest = r.highest ?? '-';
    const toLevels = LEVELS.map((l) => (r.toLevel[l] === null ? '-' : fmt(r.toLevel[l], 0))).join(
      ' / ',
    );
    const alone =
      r.thresholds.firstAlertMin === null
        ? 'none'
        : `${fmt(r.thresholds.firstAlertMin, 0)} min, ${r.thresholds.highest}`;
    let budget = r.budgetMinutes === null ? 'alerted' : `≤ ${r.budgetMinutes} min`;
    if (r.firstAlertMin === null) budget += ': NOT alerted, over budget';
    else if (r.budgetMinutes !== null && r.firstAlertMin > r.budgetMinutes)
      budget += ': over budget';
    else budget += ': met';
    console.log(
      `${pad(r.label, 48)}${pad(r.seed, 5)}${padL(first, 6)}  ${pad(toLevels, 13)}${pad(highest, 10)}${pad(alone, 22)}${pad(r.leadInAlerts, 8)}${budget}`,
    );
  }
  console.log(
    '  * an alert from the lead-in was still open when the danger started. lead-in: alerts opened and resolved before it (false alarms on the days before).',
  );
}

export async function run(argv = []) {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      quick: { type: 'boolean' },
      seed: { type: 'string' },
      json: { type: 'boolean' },
      out: { type: 'string' },
    },
  });
  const seeds = values.seed !== undefined ? [Number(values.seed)] : values.quick ? [1] : [1, 2, 3];
  if (seeds.some((s) => !Number.isInteger(s) || s < 0))
    throw new Error('--seed must be a whole number, 0 or more');
  const started = performance.now();
  const runs = [];
  for (const seed of seeds) runs.push(await runSeed(seed));
  const posted = runs.reduce((n, r) => n + r.posted.readings, 0);
  const requests = runs.reduce((n, r) => n + r.posted.requests, 0);
  const ingestS = runs.reduce((n, r) => n + r.seconds, 0);
  console.log(
    `alerts      ${PROFILE_KEYS.length} dogs × ${BENIGN_WEEKS.length} benign weeks and ${EPISODE_KEYS.length} episodes, seeds ${seeds.join(', ')}: ` +
      `${posted} readings in ${requests} requests through the ingest path (SQLite, in process) in ${fmt(ingestS)} s ` +
      `(${fmt(posted / ingestS, 0)} readings/s); ${fmt((performance.now() - started) / 1000)} s in all`,
  );
  const weekResults = runs.flatMap((r) => r.weekResults);
  const episodeResults = runs.flatMap((r) => r.episodeResults);
  printWeeks(weekResults, seeds);
  printEpisodes(episodeResults);
  printBudgets(weekResults, episodeResults, seeds);
  if (values.json || values.out) {
    const file =
      values.out ??
      path.join(
        root,
        'bench/results',
        `alerts-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
      );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({ seeds, weeks: weekResults, episodes: episodeResults }, null, 2),
    );
    console.log(`\nJSON: ${path.relative(process.cwd(), file)}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run(process.argv.slice(2));
