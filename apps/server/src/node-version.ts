/**
 * The oldest Node.js the server runs on: the `engines` of the root package.json (better-sqlite3
 * 13 needs the Node-API of Node 22). `npm start` runs on the Node.js 24 the project installs;
 * this is for a server started some other way, such as `node apps/server/dist/server.js` on a
 * machine whose own Node is older, where the native add-on would crash without a word.
 */
export const MIN_NODE_MAJOR = 22;

/** A message naming the version found and what to do, or null when this Node.js will do. */
export function unsupportedNodeMessage(version = process.versions.node): string | null {
  if (Number(version.split('.')[0]) >= MIN_NODE_MAJOR) return null;
  return (
    `PawGuard needs Node.js ${MIN_NODE_MAJOR} or newer (24 LTS recommended); this is Node.js ${version}.\n` +
    'Start it with `npm start`, or with the Node.js 24 that `npm install` put in the project: ' +
    '`node_modules/.bin/node apps/server/dist/server.js`.'
  );
}
