import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsCsp } from '../../src/app.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Operation = { security?: Record<string, string[]>[] };
const operations = async () => {
  const res = await t.app.inject({ url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  return res.json().paths as Record<string, Record<string, Operation>>;
};

describe('the OpenAPI document at /api/docs', () => {
  it('lists null among the values of every nullable enum, as the answers may hold it', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as unknown;
    const enums: { enum: unknown[] }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        if (o.nullable === true && Array.isArray(o.enum)) enums.push(o as { enum: unknown[] });
        Object.values(o).forEach(walk);
      }
    };
    walk(doc);
    // A pet's sex, a device's risk band, an alert's level and who resolved it, at least.
    expect(enums.length).toBeGreaterThan(10);
    for (const e of enums) expect(e.enum).toContain(null);
    const dogs = (doc as { paths: Record<string, Record<string, unknown>> }).paths['/api/dogs'];
    expect(JSON.stringify(dogs)).toContain('"enum":["female","male",null]');
  });

  it('names the credential of every protected operation, and none for public ones', async () => {
    const paths = await operations();
    for (const policy of t.app.routePolicies) {
      if (policy.url.startsWith('/api/docs') || policy.method === 'HEAD') continue;
      const documented = Object.entries(paths).find(
        ([p]) =>
          p.replace(/\/$/, '').replace(/\{(\w+)\}/g, ':$1') === policy.url.replace(/\/$/, ''),
      )?.[1]?.[policy.method.toLowerCase()];
      expect(documented, `${policy.method} ${policy.url} is documented`).toBeDefined();
      const expected =
        policy.auth === 'public'
          ? undefined
          : policy.auth === 'device_or_user'
            ? [{ device: [] }, { bearer: [] }]
            : [{ [policy.auth === 'device' ? 'device' : 'bearer']: [] }];
      expect(documented!.security, `${policy.method} ${policy.url}`).toEqual(expected);
    }
  });

  it('documents what every body may be refused with, in words, on each operation that takes one', async () => {
    const paths = (await operations()) as unknown as Record<
      string,
      Record<string, { requestBody?: unknown; responses: Record<string, { description: string }> }>
    >;
    const ops = Object.values(paths).flatMap((p) => Object.values(p));
    expect(ops.filter((o) => o.requestBody).length).toBeGreaterThan(20);
    for (const o of ops) {
      if (o.requestBody)
        expect(Object.keys(o.responses)).toEqual(expect.arrayContaining(['413', '415']));
      for (const r of Object.values(o.responses))
        expect(r.description).not.toBe('Default Response');
    }
    // And the server answers so: a body that is not JSON, and one over the limit.
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/waitlist',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect([notJson.statusCode, notJson.json()]).toEqual([415, { error: expect.any(String) }]);
    const tooLarge = await t.app.inject({
      method: 'POST',
      url: '/api/waitlist',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(200_000) }),
    });
    expect([tooLarge.statusCode, tooLarge.json()]).toEqual([413, { error: expect.any(String) }]);
  });

  it('documents the answers that are not JSON as what they are', async () => {
    const paths = (await operations()) as unknown as Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
    >;
    // The mail link redirects (303, no body); the stream is text/event-stream.
    expect(Object.keys(paths['/api/auth/confirm/{token}']!.get!.responses)).toEqual(['303']);
    expect(paths['/api/auth/confirm/{token}']!.get!.responses['303']!.content).toBeUndefined();
    const confirm = await t.app.inject({ url: '/api/auth/confirm/no-such-link' });
    expect([confirm.statusCode, confirm.headers.location]).toEqual([303, '/?confirmed=0']);
    expect(Object.keys(paths['/api/stream']!.get!.responses['200']!.content!)).toEqual([
      'text/event-stream',
    ]);
  });

  it('lists API operations only, not the page of the app', async () => {
    const paths = await operations();
    expect(Object.keys(paths).every((p) => p.startsWith('/api/'))).toBe(true);
  });

  it('keeps its page usable over plain HTTP and unframeable', async () => {
    const res = await t.app.inject({ url: '/api/docs/static/index.html' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("object-src 'none'");
  });

  it('calls no outside host: the validator badge is off and the CSP allows no other host', async () => {
    const csp = String(
      (await t.app.inject({ url: '/api/docs/static/index.html' })).headers[
        'content-security-policy'
      ],
    );
    expect(csp).not.toMatch(/swagger\.io|https:|http:/);
    expect(csp).toContain("img-src 'self' data:");
    const init = (await t.app.inject({ url: '/api/docs/static/swagger-initializer.js' })).body;
    expect(init).toContain('"validatorUrl":null');
    expect(init).not.toContain('validator.swagger.io');
  });

  it('drops only the directives it must from the UI header', () => {
    expect(
      docsCsp(
        "default-src 'self'; frame-ancestors 'self'; style-src 'self' https:; upgrade-insecure-requests;",
      ),
    ).toBe("default-src 'self'; frame-ancestors 'none'; style-src 'self' 'unsafe-inline'");
  });
});
