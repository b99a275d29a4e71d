#!/usr/bin/env node
// `npm start`: build when the build is missing or older than the sources, then serve the
// app and the API on one port (PORT, default 3000) with the SQLite default.
import './require-node.mjs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await buildIfStale({ root, log: (msg) => console.warn(msg) });
await import(pathToFileURL(path.join(root, 'apps/server/dist/server.js')).href);
