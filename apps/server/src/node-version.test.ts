import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR, unsupportedNodeMessage } from './node-version.js';

describe('the Node.js version the server starts on', () => {
  it('is the one package.json engines names', () => {
    const pkg = JSON.parse(
      fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    );
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
  });

  it('refuses an older Node.js, naming it and how to start on the project’s own', () => {
    const message = unsupportedNodeMessage('20.20.2');
    expect(message).toContain('this is Node.js 20.20.2');
    expect(message).toContain('node_modules/.bin/node apps/server/dist/server.js');
    expect(unsupportedNodeMessage('22.0.0')).toBeNull();
    expect(unsupportedNodeMessage('24.21.0')).toBeNull();
  });
});
