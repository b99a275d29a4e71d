import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { User } from '@pawguard/shared';
import type { AuthService } from '../services/auth-service.js';
import { ForbiddenError, UnauthorizedError } from '../services/errors.js';
import type { DevicePrincipal } from '../services/device-key-cache.js';

/**
 * Every /api route declares who may call it; a route without a policy stops the server from
 * starting (deny by default). `user` means any signed-in account; admins pass it too.
 */
export type AuthPolicy = 'public' | 'user' | 'admin' | 'device' | 'device_or_user';
export const AUTH_POLICIES: readonly AuthPolicy[] = [
  'public',
  'user',
  'admin',
  'device',
  'device_or_user',
];

/** `device_or_user` routes take a collar's key when the header names one, else a session. */
const DEVICE_SCHEME = /^\s*Device\s/;

/** One /api route as the server registered it: who may call it and which parts it validates. */
export interface RoutePolicy {
  method: string;
  url: string;
  auth: AuthPolicy;
  /** The request parts with a schema: body, params, querystring, headers. */
  validates: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its policy, for the authorization matrix and route scans. */
    routePolicies: RoutePolicy[];
  }
  interface FastifyContextConfig {
    auth?: AuthPolicy;
  }
  interface FastifyRequest {
    auth: { user: User; sessionId: string } | null;
    device: DevicePrincipal | null;
  }
}

const REQUEST_PARTS = ['body', 'params', 'querystring', 'headers'] as const;

export type DeviceAuthenticator = (request: FastifyRequest) => Promise<DevicePrincipal | null>;

export interface AuthPluginOptions {
  auth: AuthService;
  /** Filled in by the devices feature; until then device routes answer 401. */
  deviceAuthenticator?: () => DeviceAuthenticator | undefined;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header.trim());
  return match ? match[1]! : null;
}

export function registerAuth(app: FastifyInstance, opts: AuthPluginOptions): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('device', null);

  app.decorate('routePolicies', [] as RoutePolicy[]);

  const authenticate: onRequestHookHandler = async (request) => {
    const policy = request.routeOptions.config.auth;
    if (!policy || policy === 'public') return;
    if (
      policy === 'device' ||
      (policy === 'device_or_user' && DEVICE_SCHEME.test(request.headers.authorization ?? ''))
    ) {
      const principal = await opts.deviceAuthenticator?.()?.(request);
      if (!principal) throw new UnauthorizedError('A valid device key is required');
      request.device = principal;
      return;
    }
    const token = bearerToken(request);
    const session = token ? await opts.auth.authenticate(token) : null;
    if (!session) {
      request.log.info(
        { event: 'auth.token_rejected', outcome: 'failure', hadToken: Boolean(token) },
        'token rejected',
      );
      throw new UnauthorizedError('Authentication required');
    }
    request.auth = session;
    if (policy === 'admin' && session.user.role !== 'admin') {
      request.log.warn(
        {
          event: 'authz.denied',
          actor: session.user.id,
          target: request.routeOptions.url,
          outcome: 'failure',
        },
        'admin call refused',
      );
      throw new ForbiddenError('Admin access required');
    }
  };

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api')) return;
    // The API documentation is public by design (its routes come from @fastify/swagger-ui).
    if (route.url === '/api/docs' || route.url.startsWith('/api/docs/')) {
      route.config = { ...route.config, auth: 'public' };
    }
    const policy = (route.config as { auth?: AuthPolicy } | undefined)?.auth;
    if (!policy || !AUTH_POLICIES.includes(policy)) {
      throw new Error(`Route ${route.method} ${route.url} declares no auth policy (config.auth)`);
    }
    const schema = route.schema ?? {};
    const validates = REQUEST_PARTS.filter((part) => schema[part] !== undefined);
    for (const method of [route.method].flat())
      app.routePolicies.push({ method, url: route.url, auth: policy, validates });
    if (policy === 'public') return;
    // The OpenAPI document says which credential each operation takes (the docs UI's
    // Authorize button then sends it); a route may name its own, as the collar's do.
    if (!route.schema?.security) {
      route.schema = {
        ...route.schema,
        security:
          policy === 'device'
            ? [{ device: [] }]
            : policy === 'device_or_user'
              ? [{ device: [] }, { bearer: [] }]
              : [{ bearer: [] }],
      };
    }
    // A route-level hook, added after the rate limiter's: a flood of unauthenticated calls is
    // limited before any token is verified or any session read.
    route.onRequest = [...[route.onRequest ?? []].flat(), authenticate];
  });
}

/** registerAuth as a plugin, on the root: every route registered after it declares its policy. */
export const auth = fp<AuthPluginOptions>(async (app, opts) => registerAuth(app, opts), {
  name: 'pawguard-auth',
  fastify: '5.x',
});

/** The signed-in user of a `user` or `admin` route (the hook has already checked). */
export function currentUser(request: FastifyRequest): User {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth.user;
}

export function currentSessionId(request: FastifyRequest): string {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth.sessionId;
}
