import fp from 'fastify-plugin';

export interface LifecycleOptions {
  /** Start background workers (mail delivery, housekeeping, sweeps). Off in tests that drive them by hand. */
  startWorkers: boolean;
  /** Close the database as the server closes: the services plugin opened it (not a test). */
  closeDb: boolean;
}

/**
 * What runs beside the requests: started once the server is ready, stopped as it closes, in
 * the order written here. Registered last, after every route.
 */
export const lifecycle = fp<LifecycleOptions>(
  async (app, opts) => {
    const { config, container, metricsListener } = app;

    // Open streams would keep the server from closing: they end first. (New requests are
    // refused from here on: plugins/security-headers.ts.)
    app.addHook('preClose', async () => {
      container.streams.close();
      await container.mqtt.close();
      await metricsListener?.close();
    });
    app.addHook('onClose', async () => {
      container.ingest.stopStats();
      await container.ingest.drain();
      await container.bus.close();
      container.housekeeping.stop();
      await container.activityJob.stop();
      await container.insightsMail.stop();
      await container.alerts.stopSweeping();
      await container.alertMail.stop();
      await container.outboxWorker.stop();
      await container.pushWorker.stop();
      container.mailTransport.close();
      container.pushSender.close();
      if (opts.closeDb) await app.dbHandle.close();
    });

    app.addHook('onReady', async () => {
      container.streams.start();
      container.ingest.startStats(app.log);
      if (config.mqttPort !== undefined) {
        const port = await container.mqtt.listen(config.mqttPort, config.host);
        app.log.info({ port }, 'collars connect over MQTT on this port');
      }
      if (metricsListener && config.metricsPort !== undefined) {
        const port = await metricsListener.listen(config.metricsPort, config.metricsHost);
        app.log.info({ port }, 'GET /metrics is served on this port');
      }
    });
    if (opts.startWorkers)
      app.addHook('onReady', async () => {
        container.outboxWorker.start();
        container.pushWorker.start();
        container.housekeeping.start();
        container.activityJob.start();
        container.insightsMail.start();
        container.alerts.startSweeping();
        container.alertMail.start();
      });
  },
  { name: 'pawguard-lifecycle', fastify: '5.x', dependencies: ['pawguard-services'] },
);
