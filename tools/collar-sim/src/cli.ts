// `npm run sim -- --devices 50 --interval 5s [--mqtt] [--heatwave | --scenario NAME]`: sets up
// (or reuses) virtual collars on a demo owner's pets, then posts their readings, staggered,
// until Ctrl-C.
import fs from 'node:fs';
import path from 'node:path';
import { READINGS_BATCH_MAX, type ReadingInput } from '@pawguard/shared';
import { Meter, formatTotal, formatWindow } from './meter.js';
import { parseOptions, UsageError, USAGE, type SimOptions } from './options.js';
import {
  addPetsWithCollars,
  ApiError,
  ensureAccount,
  newPassword,
  signIn,
  stillAssigned,
  updatePets,
  type SimCollar,
  type SimState,
} from './provision.js';
import { SCENARIOS, type ScenarioName } from './scenarios.js';
import { historyReadings } from './history.js';
import { selfRegisterAll, SIM_FIRMWARE_VERSION } from './self-register.js';
import { httpTransport, mqttTransport, type Transport } from './transport.js';
import {
  advance,
  BACKLOG_DAYS,
  backlogReadings,
  createCollar,
  scenarioFor,
  seededRandom,
  toReading,
  type CollarState,
  type Scenario,
} from './vitals.js';

function readState(file: string): SimState | null {
  try {
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as SimState;
    return state.version === 1 && Array.isArray(state.collars) ? state : null;
  } catch {
    return null;
  }
}

function writeState(file: string, state: SimState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // It holds device keys and the owner's password: for this user only.
  fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

function adminAccount(options: SimOptions) {
  const email = options.adminEmail ?? 'admin@localhost';
  if (options.adminPassword) return { email, password: options.adminPassword };
  const file = path.join(options.dataDir, 'initial-admin-password');
  try {
    return { email, password: fs.readFileSync(file, 'utf8').trim() };
  } catch {
    throw new UsageError(
      `New collars are pre-populated by an admin, and no admin password was given: pass ` +
        `--admin-email and --admin-password, set ADMIN_PASSWORD, or point DATA_DIR at the ` +
        `server's data directory (no ${file}).`,
    );
  }
}

/**
 * The demo owner and `options.devices` collars on their pets, from the state file or new
 * (`fresh`: the Device IDs of those set up now).
 */
async function setUp(
  options: SimOptions,
): Promise<{ state: SimState; collars: SimCollar[]; fresh: Set<string> }> {
  const base = options.url;
  const previous = readState(options.statePath);
  const sameOwner =
    previous?.url === base &&
    previous.owner.email === options.ownerEmail &&
    (options.ownerPassword === null || options.ownerPassword === previous.owner.password);
  const owner = {
    email: options.ownerEmail,
    name: options.ownerName,
    password: options.ownerPassword ?? (sameOwner ? previous!.owner.password : newPassword()),
    time_zone: options.timeZone,
  };
  const kept = sameOwner ? await stillAssigned(base, previous!) : [];
  let ownerAuth;
  try {
    ownerAuth = await ensureAccount(base, owner);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401)
      throw new UsageError(
        `The owner ${owner.email} exists with another password: pass --owner-password.`,
      );
    throw err;
  }
  const collars = [...kept];
  // Kept at once, so an interrupted set-up still knows the owner's password next time.
  writeState(options.statePath, { version: 1, url: base, owner, collars });
  const profile = options.scenario ? SCENARIOS[options.scenario].pet : undefined;
  // Pets kept from an earlier run take the scenario's dog, or fit their breed (a PUT each).
  const reused = kept.slice(0, options.devices);
  if (reused.length > 0) await updatePets(base, ownerAuth.token, reused, profile);
  const missing = options.devices - kept.length;
  if (missing > 0) {
    const { token: adminToken } = await signIn(base, adminAccount(options));
    console.log(`Setting up ${missing} collar${missing === 1 ? '' : 's'} on new pets...`);
    collars.push(
      ...(await addPetsWithCollars(
        base,
        adminToken,
        { token: ownerAuth.token, userId: ownerAuth.user.id },
        missing,
        kept.length,
        profile,
      )),
    );
  }
  const state: SimState = { version: 1, url: base, owner, collars };
  writeState(options.statePath, state);
  if (kept.length > 0)
    console.log(
      `Reusing ${Math.min(kept.length, options.devices)} collars from ${options.statePath}.`,
    );
  return {
    state,
    collars: collars.slice(0, options.devices),
    fresh: new Set(collars.slice(kept.length).map((c) => c.device_id)),
  };
}

/** Each collar reports itself on power-on, as a real one does (over HTTP, also with --mqtt). */
async function reportCollars(base: string, collars: SimCollar[]): Promise<void> {
  const { registered, failed, firstError } = await selfRegisterAll(base, collars);
  console.log(
    `${registered} collar${registered === 1 ? '' : 's'} reported firmware ${SIM_FIRMWARE_VERSION}` +
      ' and their MAC address (POST /api/devices/self-register).',
  );
  if (failed > 0)
    console.warn(
      `${failed} collar${failed === 1 ? '' : 's'} could not report itself (${firstError}); ` +
        `their readings are sent all the same.`,
    );
}

function describeFleet(scenarios: Scenario[], named: ScenarioName | null): string {
  if (named) return `scenario ${named}: ${SCENARIOS[named].description}`;
  const count = (s: Scenario) => scenarios.filter((x) => x === s).length;
  if (count('normal') === scenarios.length) return 'a mild day for every dog';
  return (
    `heatwave: ${count('hot-car')} in a parked car heating up (CRITICAL), ` +
    `${count('hot-day-humid')} outdoors in humid heat (DANGER), ` +
    `${count('hot-day-dry')} in dry heat (WARNING), ${count('normal')} mild`
  );
}

/**
 * A scenario that needs the dog's past days (acclimatisation) has each collar upload them
 * first, as one that was out of reach would: oldest first, up to READINGS_BATCH_MAX a request.
 */
async function uploadBacklogs(
  dogs: { collar: SimCollar; state: CollarState }[],
  transport: Transport,
  seed: number,
): Promise<void> {
  const now = Date.now();
  // A random source of their own, so the live readings are the same with or without a backlog.
  const backlogs = dogs.map((dog, i) => ({
    collar: dog.collar,
    readings: backlogReadings(dog.state, now, seededRandom(seed + i * 7919 + 1)),
  }));
  const total = backlogs.reduce((n, b) => n + b.readings.length, 0);
  if (total === 0) return;
  console.log(
    `Uploading each collar's backlog (${total / dogs.length} readings, the last ${BACKLOG_DAYS} days)...`,
  );
  await uploadAll(backlogs, transport, "the server will not know those dogs' past days");
}

/**
 * `--history-days`: each collar set up in this run first uploads its dog's last days of
 * ordinary life, a reading a minute (collars kept from an earlier run have theirs already).
 */
async function uploadHistory(
  collars: SimCollar[],
  fresh: Set<string>,
  transport: Transport,
  options: SimOptions,
): Promise<void> {
  if (options.historyDays === 0 || fresh.size === 0) return;
  const now = Date.now();
  const histories = collars
    .map((collar, i) => ({ collar, i }))
    .filter(({ collar }) => fresh.has(collar.device_id))
    .map(({ collar, i }) => ({
      collar,
      readings: historyReadings(i, options.historyDays, now, options.seed, options.timeZone),
    }));
  const total = histories.reduce((n, h) => n + h.readings.length, 0);
  console.log(
    `Uploading ${options.historyDays} days of each new collar's dog's life (${total} readings, a minute apart); ` +
      'activity and the health dashboard show them within 10 minutes...',
  );
  await uploadAll(histories, transport, 'those dogs have no past days to show');
}

/** Each collar's readings, oldest first, up to READINGS_BATCH_MAX a request. */
async function uploadAll(
  uploads: { collar: SimCollar; readings: ReadingInput[] }[],
  transport: Transport,
  consequence: string,
): Promise<void> {
  let failed = 0;
  let tooOld = 0;
  let firstError = '';
  // A few collars at a time, each request waiting for the one before.
  for (let i = 0; i < uploads.length; i += 20) {
    await Promise.all(
      uploads.slice(i, i + 20).map(async ({ collar, readings }) => {
        for (let from = 0; from < readings.length; from += READINGS_BATCH_MAX) {
          const r = await transport.send(collar, readings.slice(from, from + READINGS_BATCH_MAX));
          // Older than the server takes (READINGS_MAX_AGE_DAYS): the newer lists may still go.
          if (!r.ok && /days old/.test(r.error)) {
            tooOld++;
            continue;
          }
          if (!r.ok) {
            failed++;
            firstError ||= r.error;
            return;
          }
        }
      }),
    );
  }
  if (tooOld > 0)
    console.warn(
      `The server took none of ${tooOld} list${tooOld === 1 ? '' : 's'} of the oldest readings ` +
        '(older than its READINGS_MAX_AGE_DAYS); the newer ones were sent.',
    );
  if (failed > 0)
    console.warn(
      `The past days of ${failed} collar${failed === 1 ? '' : 's'} were refused (${firstError}); ` +
        `${consequence}.`,
    );
}

async function simulate(options: SimOptions, collars: SimCollar[], transport: Transport) {
  const meter = new Meter();
  const scenarios = collars.map((_, i) => options.scenario ?? scenarioFor(i, options.heatwave));
  const dogs = collars.map((collar, i) => {
    const random = seededRandom(options.seed + i * 7919);
    return { collar, random, state: createCollar(scenarios[i]!, random), last: 0 };
  });
  const perSecond = (collars.length * 1000) / options.intervalMs;
  console.log(
    `${collars.length} collars → ${options.mqttUrl ?? options.url} over ${options.mqttUrl ? 'MQTT (QoS 1)' : 'HTTP'}, ` +
      `a reading every ${options.intervalMs / 1000} s each (about ${perSecond.toFixed(1)}/s); ` +
      `${describeFleet(scenarios, options.scenario)}. Ctrl-C stops.`,
  );
  await uploadBacklogs(dogs, transport, options.seed);

  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  const started = performance.now();

  const tick = (i: number, due: number) => {
    if (stopping) return;
    const dog = dogs[i]!;
    const now = performance.now();
    if (dog.last > 0) dog.state = advance(dog.state, (now - dog.last) / 1000, dog.random);
    dog.last = now;
    meter.sent();
    const sending = transport.send(dog.collar, toReading(dog.state, Date.now())).then((r) => {
      if (r.ok) meter.acked(r.status);
      else meter.failed(r.error);
      inFlight.delete(sending);
      // A collar waits for its answer before the next reading, and keeps its schedule.
      if (stopping) return;
      const next = Math.max(due + options.intervalMs, performance.now());
      schedule(i, next);
    });
    inFlight.add(sending);
  };
  const schedule = (i: number, due: number) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        tick(i, due);
      },
      Math.max(0, due - performance.now()),
    );
    timers.add(timer);
  };
  // Staggered over one interval, so the collars do not all post at once.
  dogs.forEach((_, i) => schedule(i, started + (i * options.intervalMs) / dogs.length));

  let lastPrint = started;
  const printer = setInterval(() => {
    const now = performance.now();
    const line = formatWindow(meter.take(), (now - lastPrint) / 1000, inFlight.size);
    lastPrint = now;
    if (!options.quiet) console.log(`${new Date().toISOString().slice(11, 19)}  ${line}`);
  }, 1000);

  await new Promise<void>((resolve) => {
    const stop = (why: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`\n${why}: stopping (waiting for ${inFlight.size} readings in flight)...`);
      resolve();
    };
    // A second Ctrl-C exits at once.
    let signalled = false;
    const onSignal = (why: string) => () => {
      if (signalled) process.exit(130);
      signalled = true;
      stop(why);
    };
    process.on('SIGINT', onSignal('Interrupted'));
    process.on('SIGTERM', onSignal('Terminated'));
    // Started by `npm run demo`: it asks over IPC, and its end is the simulator's too.
    process.on('message', (m) => m === 'stop' && stop('Demo stopping'));
    process.on('disconnect', () => stop('Demo gone'));
    if (options.durationMs !== null) {
      const t = setTimeout(
        () => stop(`Ran for ${options.durationMs! / 1000} s`),
        options.durationMs,
      );
      t.unref();
    }
  });
  clearInterval(printer);
  for (const t of timers) clearTimeout(t);
  await Promise.race([
    Promise.allSettled([...inFlight]),
    new Promise((r) => setTimeout(r, 5000).unref()),
  ]);
  await transport.close();
  console.log(formatTotal(meter.total, (performance.now() - started) / 1000));
  process.disconnect?.();
}

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env, process.cwd());
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }
  // Until the collars run, a stop from `npm run demo` (or its end) needs no clean-up.
  const early = (m?: unknown) => (m === undefined || m === 'stop') && process.exit(0);
  process.on('message', early).on('disconnect', early);
  try {
    const { state, collars, fresh } = await setUp(options);
    console.log(
      `Demo owner: ${state.owner.email} / ${state.owner.password}  (sign in at ${options.url})`,
    );
    await reportCollars(options.url, collars);
    const transport = options.mqttUrl ? mqttTransport(options.mqttUrl) : httpTransport(options.url);
    await transport.open(collars);
    await uploadHistory(collars, fresh, transport, options);
    process.off('message', early).off('disconnect', early);
    await simulate(options, collars, transport);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ApiError) {
      console.error(err.message);
      process.exit(1);
    }
    const cause = (err as { cause?: { code?: string } }).cause;
    if (cause?.code === 'ECONNREFUSED') {
      console.error(`No PawGuard server answers at ${options.url} (start it with npm start).`);
      process.exit(1);
    }
    throw err;
  }
}

await main();
