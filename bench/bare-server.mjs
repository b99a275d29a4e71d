// The yardstick for ingest throughput: a bare Fastify route taking the same POST as the real
// server (JSON parsed, 201 answered), nothing stored. Forked by ingest.mjs; tells its port.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/api/devices/:deviceId/vitals', async (request, reply) => {
  const reading = request.body;
  return reply.code(201).send({ vitals: { device_id: request.params.deviceId, ...reading } });
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
