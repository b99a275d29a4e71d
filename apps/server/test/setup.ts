// Per-file set-up lives in helpers/app.ts; this file only pins the environment.
process.env.TZ = 'UTC';
