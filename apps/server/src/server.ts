import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config/env.js';
import { DataDirLockedError } from './db/index.js';
import { buildApp } from './app.js';
import { EventBusUnavailableError } from './services/event-bus.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  let app;
  try {
    app = await buildApp({ config });
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof EventBusUnavailableError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`PawGuard is running at ${config.publicUrl}`);
}

void main();
