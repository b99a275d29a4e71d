// The process entry (dist/server.js). The Node.js version is checked before anything loads the
// native add-ons, which crash without a message on a Node.js too old for them; the server
// itself (serve.ts) is loaded only then.
import { unsupportedNodeMessage } from './node-version.js';

const unsupported = unsupportedNodeMessage();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}
await import('./serve.js');
