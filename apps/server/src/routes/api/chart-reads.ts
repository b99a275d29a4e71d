import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth.js';

/**
 * The step before a chart read (history, back-test, activity, insights): charged to the
 * caller's account, or refused with 429 and Retry-After, a repeated refusal a second later
 * and with `Connection: close` (decision 0046). After authentication, before any query.
 */
export function chargeChartRead(app: FastifyInstance) {
  const { readBudget, refusals, clock } = app.container;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      readBudget.take(currentUser(request).id, clock.now().getTime());
    } catch (err) {
      if (await refusals.hold(err, request.raw.socket)) reply.header('connection', 'close');
      throw err;
    }
  };
}
