#!/usr/bin/env node
// `npm run backup -- <file>` and `npm run restore -- <file>`: builds when stale (as `npm start`
// does), then runs the server's backup command with the server's settings (.env here, then the
// environment). <file> is taken relative to the directory npm was run from.
import './require-node.mjs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, file, ...rest] = process.argv.slice(2);
// npm runs scripts from the package root; INIT_CWD is where the command was typed.
const where = process.env.INIT_CWD || process.cwd();
await buildIfStale({ root, log: (msg) => console.warn(msg) });
const { main } = await import(
  pathToFileURL(path.join(root, 'apps/server/dist/backup-cli.js')).href
);
process.exitCode = main([command, file === undefined ? file : path.resolve(where, file), ...rest]);
