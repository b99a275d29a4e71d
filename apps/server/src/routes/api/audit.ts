import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/auth.js';

/**
 * Runs an admin's action (on devices, on mail) and logs it (event, actor, target, outcome), success or not.
 * Keys never reach these lines.
 */
export async function audited<T>(
  request: FastifyRequest,
  event: string,
  target: string | string[],
  action: () => Promise<T>,
  detail: (result: T) => Record<string, unknown> = () => ({}),
): Promise<T> {
  const actor = currentUser(request).id;
  try {
    const result = await action();
    request.log.info({ event, actor, target, outcome: 'success', ...detail(result) }, event);
    return result;
  } catch (err) {
    request.log.warn(
      { event, actor, target, outcome: 'failure', reason: (err as Error).message },
      event,
    );
    throw err;
  }
}
