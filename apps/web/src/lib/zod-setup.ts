// zod compiles fast parsers with `new Function`, which our CSP (script-src 'self') forbids:
// even the probe for it, made when the first object schema is built, reports a violation.
// zod's core module reads its settings from this global when it first runs, so setting it
// here, in the entry before any chunk loads zod, makes every schema jitless without putting
// zod itself into the landing page's bundle. The CSP browser test guards this.
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };

export {};
