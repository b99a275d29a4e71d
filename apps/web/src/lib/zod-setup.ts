import { config } from 'zod/v4/core';

// zod compiles fast parsers with `new Function`, which our CSP (script-src 'self') forbids:
// the attempt alone reports a violation. Parse without it; imported first by main.tsx.
config({ jitless: true });
