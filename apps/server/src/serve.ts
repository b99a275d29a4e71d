import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, loadEnvFile } from './config/env.js';
import { DataDirError, DatabaseUnavailableError } from './db/index.js';
import { buildApp } from './app.js';
import { EventBusUnavailableError } from './services/event-bus.js';

async function main() {
  let config;
  let envFile;
  try {
    // Once, first: .env in the directory the server is started from, under the environment.
    envFile = loadEnvFile();
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
    if (
      err instanceof DataDirError ||
      err instanceof DatabaseUnavailableError ||
      err instanceof EventBusUnavailableError
    ) {
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
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    // The collars' MQTT port is opened first (when MQTT_PORT is set), then the HTTP port.
    const { code, port = config.port } = err as NodeJS.ErrnoException & { port?: number };
    if (code !== 'EADDRINUSE' && code !== 'EACCES' && code !== 'EADDRNOTAVAIL') throw err;
    const setting =
      port === config.port
        ? 'PORT'
        : port === config.mqttPort
          ? 'MQTT_PORT'
          : port === config.metricsPort
            ? 'METRICS_PORT'
            : 'PORT';
    console.error(
      code === 'EADDRINUSE'
        ? `Port ${port} on ${config.host} is already in use by another program: stop it, or set ${setting} to a free port.`
        : `PawGuard may not listen on ${config.host}:${port} (${code}): set HOST and ${setting} to an address this machine lets it use.`,
    );
    await app.close();
    process.exit(1);
  }
  if (envFile) app.log.info({ file: envFile }, 'settings read from .env (the environment wins)');
  app.log.info(`PawGuard is running at ${config.publicUrl}`);
}

void main();
