// Imported first by every entry script: on a Node.js older than package.json's `engines`
// asks for, stop at once with a message that names both versions, before any native add-on
// is loaded (better-sqlite3 13 needs Node-API of Node 22 or newer).
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const needed = Number(/>=\s*(\d+)/.exec(pkg.engines.node)[1]);
const found = process.versions.node;
if (Number(found.split('.')[0]) < needed) {
  console.error(
    `PawGuard needs Node.js ${needed} or newer (24 LTS recommended); this is Node.js ${found}.\n` +
      `Install Node.js 24 (the project's .nvmrc names it: \`nvm install\`, \`fnm use\`), ` +
      `then run \`rm -rf node_modules && npm install\` again.`,
  );
  process.exit(1);
}
