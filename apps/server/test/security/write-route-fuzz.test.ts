import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { leaksIn } from '../helpers/api.js';
import { deviceAuth, prePopulate } from '../helpers/devices.js';
import { routeSamples, type Principal } from '../helpers/route-samples.js';

/**
 * IN-1, ERR-1, "never a 5xx": every write route the server registers, generated from the
 * registered routes and their OpenAPI request schemas. Each starts from the route's valid
 * sample request (the authorization matrix makes every route have one) and spoils one field
 * at a time, in the ways its schema type invites; then whole-body garbage. A new route is
 * covered without anyone adding it here.
 *
 * Asserted for every request: no 5xx, a clean { error } on 4xx, nothing stored changed by a
 * refused request, no NUL character ever stored (PostgreSQL cannot hold one: a 500 there),
 * and no line break or control character in any one-line column.
 */
let t: TestApp;
let user: SeededUser;
let admin: SeededUser;
let deviceKey: string;
beforeAll(async () => {
  t = await createTestApp();
  [user, admin] = await Promise.all([seedUser(t), seedUser(t, { role: 'admin' })]);
  deviceKey = (await prePopulate(t, admin))[0]!.device_key;
});
afterAll(() => t.close());

const who = (p: Principal) => (p === 'user' ? user : p === 'admin' ? admin : undefined);
const samples = routeSamples({ t: () => t, who, user: () => user, admin: () => admin });

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
};

/** The kinds of value a property accepts ('string', 'integer', 'enum', 'array', …). */
function kinds(schema: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  if (!schema) return out;
  if (schema.enum) out.add('enum');
  for (const ty of [schema.type ?? []].flat()) if (ty !== 'null') out.add(ty);
  for (const s of schema.anyOf ?? []) for (const k of kinds(s)) out.add(k);
  return out;
}

/** Bad values for a property, by what its schema accepts. */
function spoilers(schema: JsonSchema | undefined): unknown[] {
  const k = kinds(schema);
  const bad: unknown[] = [null, { nested: true }, ['a']];
  if (k.has('string') || k.has('enum'))
    bad.push(
      'a\u0000b',
      'line\nbreak',
      'carriage\rreturn',
      'escape\u001b[31m',
      'tab\there',
      '\u202e\u200b',
      'x'.repeat(5_000),
      '',
      '   ',
      42,
      true,
    );
  if (k.has('enum')) bad.push('not-one-of-them');
  if (k.has('number') || k.has('integer'))
    bad.push('12', -1, 1e308, -1e308, 0.5, true, Number.MAX_SAFE_INTEGER + 2);
  if (k.has('boolean')) bad.push('true', 1, 0);
  if (k.has('array'))
    bad.push(
      'list',
      [],
      Array.from({ length: 1_001 }, () => ({})),
    );
  return bad;
}

const operationSchema = (doc: OpenApi, method: string, url: string) => {
  const entry = Object.entries(doc.paths).find(
    ([p]) => p.replace(/\/$/, '').replace(/\{(\w+)\}/g, ':$1') === url.replace(/\/$/, ''),
  );
  return entry?.[1][method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
};
type OpenApi = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
};

let tables: string[] | undefined;
/**
 * Every cell of every table the database has (read from the database itself, so a table a
 * later feature adds is covered without anyone listing it), rows in a stable order, to
 * compare before and after a refused request.
 */
async function stored(): Promise<string> {
  const db = t.app.container.db;
  tables ??= (await db.introspection.getTables())
    .map((x) => x.name)
    .filter((name) => !name.startsWith('kysely_'))
    .sort();
  const dump: Record<string, unknown> = {};
  for (const table of tables) {
    const rows = await db
      .selectFrom(table as 'users')
      .selectAll()
      .execute();
    dump[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return JSON.stringify(dump);
}

/** One-line columns: no control character may ever be stored in them. */
async function controlCharactersInOneLineColumns(): Promise<string[]> {
  const db = t.app.container.db;
  const found: string[] = [];
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  const control = /[\u0000-\u001f\u007f]/;
  const check = (table: string, rows: Record<string, unknown>[], columns: string[]) => {
    for (const row of rows)
      for (const c of columns)
        if (typeof row[c] === 'string' && control.test(row[c] as string))
          found.push(`${table}.${c}=${JSON.stringify(row[c])}`);
  };
  check('users', await db.selectFrom('users').selectAll().execute(), ['name', 'email']);
  check('dogs', await db.selectFrom('dogs').selectAll().execute(), ['name']);
  check('devices', await db.selectFrom('devices').selectAll().execute(), [
    'device_name',
    'firmware_version',
    'device_id',
    'device_address',
  ]);
  check('waitlist_entries', await db.selectFrom('waitlist_entries').selectAll().execute(), [
    'name',
    'email',
    'phone',
    'pet_name',
  ]);
  return found;
}

type Body = Record<string, unknown>;
/** Each field path of a valid body (into the first item of a list of objects), with its schema. */
function fieldPaths(body: Body, schema: JsonSchema | undefined, prefix: string[] = []) {
  const out: Array<{ path: string[]; schema: JsonSchema | undefined }> = [];
  const props = schema?.properties ?? {};
  for (const name of new Set([...Object.keys(props), ...Object.keys(body)])) {
    const value = body[name];
    const prop = props[name];
    out.push({ path: [...prefix, name], schema: prop });
    const item = Array.isArray(value) ? value[0] : undefined;
    if (item && typeof item === 'object')
      out.push(...fieldPaths(item as Body, prop?.items, [...prefix, name, '0']));
  }
  return out;
}
function withValue(body: Body, path: string[], value: unknown): Body {
  const copy = structuredClone(body);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

async function send(opts: InjectOptions, auth: string, payload: unknown, raw?: string) {
  const principal: Principal = auth === 'admin' ? 'admin' : auth === 'public' ? 'anon' : 'user';
  // The sample's own credentials when it brings them (logout signs in afresh), else the role's.
  const own = opts.headers as Record<string, string> | undefined;
  const role = who(principal);
  const headers = {
    ...(auth === 'device' ? deviceAuth(deviceKey) : (own ?? (role ? bearer(role.token) : {}))),
    ...(raw !== undefined ? { 'content-type': 'application/json' } : {}),
  };
  return t.app.inject({
    method: opts.method ?? 'POST',
    url: opts.url as string,
    headers,
    ...(raw !== undefined ? { body: raw } : { payload: payload as Body }),
  });
}

const writeRoutes = () =>
  t.app.routePolicies.filter(
    (r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.url.startsWith('/api/docs'),
  );

describe('every write route, one spoiled field at a time', () => {
  it('covers every registered write route', () => {
    const missing = writeRoutes()
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => !(k in samples));
    expect(missing).toEqual([]);
    expect(writeRoutes().length).toBeGreaterThanOrEqual(15);
  });

  it('never answers 5xx, refuses cleanly, and never stores NUL or a control character in one line', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as OpenApi;
    let sent = 0;
    for (const route of writeRoutes()) {
      const principal: Principal =
        route.auth === 'admin' ? 'admin' : route.auth === 'public' ? 'anon' : 'user';
      const schema = operationSchema(doc, route.method, route.url);
      const sample = await samples[`${route.method} ${route.url}`]!(principal);
      const body = (sample.payload ?? {}) as Body;
      for (const { path, schema: fieldSchema } of fieldPaths(body, schema)) {
        for (const bad of spoilers(fieldSchema)) {
          // A fresh valid request each time: an accepted spoil must not turn the next into a 409.
          const fresh = await samples[`${route.method} ${route.url}`]!(principal);
          const payload = withValue((fresh.payload ?? {}) as Body, path, bad);
          const before = await stored();
          const res = await send(fresh, route.auth, payload);
          sent++;
          const what = `${route.method} ${route.url} ${path.join('.')}=${JSON.stringify(bad)?.slice(0, 40)} → ${res.statusCode} ${res.body.slice(0, 120)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          expect(leaksIn(res.body), what).toEqual([]);
          // One read of everything stored after the request serves both checks.
          const after = await stored();
          if (res.statusCode >= 400) {
            expect(Object.keys(res.json()), what).toEqual(['error']);
            expect(after, `a refused request changed nothing: ${what}`).toBe(before);
          }
          expect(after.includes('\\u0000'), `NUL stored: ${what}`).toBe(false);
          expect(await controlCharactersInOneLineColumns(), what).toEqual([]);
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
  }, 240_000);
});

describe('every write route, whole-body garbage', () => {
  const GARBAGE = [
    '',
    'null',
    '[]',
    '"text"',
    '42',
    '{"a":',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '\u0000',
    '{"x":"\\u0000"}',
    `{"deep":${'['.repeat(2_000)}${']'.repeat(2_000)}}`,
    JSON.stringify({ every: 'x'.repeat(90_000) }),
  ];

  it('answers each with a 4xx { error } and changes nothing', async () => {
    for (const route of writeRoutes()) {
      const principal: Principal =
        route.auth === 'admin' ? 'admin' : route.auth === 'public' ? 'anon' : 'user';
      // One sample a route, made again only after a request it took: a refused one changed
      // nothing, so the next garbage meets the same request.
      const make = () => samples[`${route.method} ${route.url}`]!(principal);
      let sample = await make();
      for (const raw of GARBAGE) {
        const before = await stored();
        const res = await send(sample, route.auth, undefined, raw);
        const what = `${route.method} ${route.url} ${raw.slice(0, 30)} → ${res.statusCode} ${res.body.slice(0, 100)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        // JSON null, or nothing after the JSON content type, is "no body", which a bodyless
        // route (logout, rotate-key) takes.
        if ((raw === 'null' || raw === '') && res.statusCode < 300) {
          sample = await make();
          continue;
        }
        expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(Object.keys(res.json()), what).toEqual(['error']);
        expect(leaksIn(res.body), what).toEqual([]);
        expect(await stored(), what).toBe(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    }
  });
});

describe('every route, spoiled path parameters and query strings', () => {
  /** Bad values for one path segment or query value, URL-encoded as a client would send them. */
  const BAD = [
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    encodeURIComponent('a\u0000b'),
    encodeURIComponent('line\nbreak'),
    'x'.repeat(3_000),
    encodeURIComponent('../../etc/passwd'),
    encodeURIComponent('PET-<script>'),
    '-1',
    '1e309',
    encodeURIComponent(' '),
  ];
  const routes = () =>
    t.app.routePolicies.filter(
      (r) =>
        !r.url.startsWith('/api/docs') &&
        ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method),
    );

  it('covers every route with a path parameter, and every route a sample sends a query to', async () => {
    const withParams = routes().filter((r) => /:\w/.test(r.url));
    expect(withParams.length).toBeGreaterThanOrEqual(15);
  });

  it('answers a 4xx { error } (or a normal answer), never a 5xx, and changes nothing it refuses', async () => {
    let sent = 0;
    for (const route of routes()) {
      const key = `${route.method} ${route.url}`;
      if (!(key in samples)) continue;
      const principal: Principal =
        route.auth === 'admin' ? 'admin' : route.auth === 'public' ? 'anon' : 'user';
      const segments = route.url.split('/');
      const params = segments.flatMap((seg, i) => (seg.startsWith(':') ? [i] : []));
      const sample = await samples[key]!(principal);
      const [path, query = ''] = (sample.url as string).split('?');
      const queryKeys = [...new URLSearchParams(query).keys()];
      const variants: string[] = [];
      for (const i of params)
        for (const bad of BAD) {
          const parts = path!.split('/');
          parts[i] = bad;
          variants.push(`${parts.join('/')}${query ? `?${query}` : ''}`);
        }
      for (const name of queryKeys)
        for (const bad of BAD) {
          const q = new URLSearchParams(query);
          q.set(name, decodeURIComponent(bad));
          variants.push(`${path}?${q}`);
        }
      // A parameter nobody asked for, and a repeated one.
      variants.push(`${path}?${query ? `${query}&` : ''}unknown=1`);
      if (queryKeys[0]) variants.push(`${path}?${query}&${query}`);
      for (const url of variants) {
        const fresh = await samples[key]!(principal);
        const before = await stored();
        const res = await send({ ...fresh, url }, route.auth, fresh.payload ?? undefined);
        sent++;
        const what = `${route.method} ${url.slice(0, 120)} → ${res.statusCode} ${res.body.slice(0, 120)}`;
        expect(res.statusCode, what).toBeLessThan(500);
        expect(leaksIn(res.body), what).toEqual([]);
        if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
          expect(Object.keys(res.json()), what).toEqual(['error']);
          expect(await stored(), `a refused request changed nothing: ${what}`).toBe(before);
        }
      }
    }
    expect(sent).toBeGreaterThan(200);
  }, 240_000);
});
