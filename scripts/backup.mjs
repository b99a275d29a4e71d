#!/usr/bin/env node
// `npm run backup -- <file>` and `npm run restore -- <file>`: run the server's backup command
// (apps/server/dist/backup-cli.js) with the server's settings (.env in the repository, then the
// environment). <file> is taken relative to the directory npm was run from. It never builds:
// an operations command must not spend the cores of a serving machine, nor rewrite the dist/
// a running server loads from; `npm start` (or `npm run build`) has built it already.
import './require-node.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, file, ...rest] = process.argv.slice(2);
// npm runs scripts from the package root; INIT_CWD is where the command was typed.
const where = process.env.INIT_CWD || process.cwd();
const cli = path.join(root, 'apps/server/dist/backup-cli.js');
if (!fs.existsSync(cli)) {
  console.error(
    'PawGuard is not built here yet: run `npm run build` (or `npm start`, which builds) first.',
  );
  process.exit(1);
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = main([command, file === undefined ? file : path.resolve(where, file), ...rest]);
