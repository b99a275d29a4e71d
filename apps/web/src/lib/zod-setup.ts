import { config } from 'zod/v4/core';

// zod compiles fast parsers with `new Function`, which our CSP (script-src 'self') forbids:
// the attempt alone reports a violation. Parse without it. Imported first by every module that
// parses with zod (lib/api-client, the waitlist form), so zod stays out of the landing bundle.
config({ jitless: true });
