import type { z } from 'zod';
import { MESSAGES } from '@pawguard/shared';
import { env } from '@/config/env';
import { authToken } from '@/lib/auth-token';
import { clearEarlyResponses, takeEarlyResponse } from '@/lib/early-requests';

/** A failed call, with the message a person can read. `status` is 0 for network failures. */
export class ApiError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type RequestOptions<S extends z.ZodType | undefined> = {
  method?: Method;
  body?: unknown;
  schema?: S;
  signal?: AbortSignal;
  /**
   * Whether this call may change what a GET answers; every call but a GET does unless it
   * says otherwise (a stream ticket changes nothing). Such a call outdates the early answers.
   */
  changesData?: boolean;
};

type Result<S> = S extends z.ZodType ? z.infer<S> : unknown;

function errorMessageFrom(payload: unknown): string | null {
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const error = (payload as { error: unknown }).error;
    if (typeof error === 'string' && error.trim() !== '') return error;
  }
  return null;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `promise`, unless `signal` aborts first (as fetch would with that signal). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Calls `/api{path}`. Rules (DESIGN §4): Content-Type only when there is a body; a bearer
 * header whenever a token is stored; a 401 on a call made with a token, or while this tab
 * holds a session, ends the session — a 401 without either (a failed login) keeps the
 * server's own message.
 */
export async function apiRequest<S extends z.ZodType | undefined = undefined>(
  path: string,
  { method = 'GET', body, schema, signal, changesData = method !== 'GET' }: RequestOptions<S> = {},
): Promise<Result<S>> {
  const token = authToken.get();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  // A GET the entry module already started for this session (lib/early-requests.ts), unless
  // this call is already given up; any change the user makes outdates every early answer.
  if (changesData) clearEarlyResponses();
  const early = method === 'GET' && !signal?.aborted ? takeEarlyResponse(path, token) : undefined;
  let response: Response;
  try {
    response = await (early
      ? abortable(early, signal)
      : fetch(`${env.apiBaseUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(MESSAGES.networkError, 0);
  }

  const payload = await readJson(response);

  if (!response.ok) {
    // A call this tab made in its session, even one that went without a token because another
    // tab had just logged out: the session ends here too.
    if (response.status === 401 && (token || authToken.held())) {
      // Only drop the token this call used: a newer sign-in may have replaced it meanwhile.
      if (authToken.get() === token) authToken.expire();
      throw new ApiError(MESSAGES.authRequired, 401);
    }
    throw new ApiError(errorMessageFrom(payload) ?? MESSAGES.requestFailed, response.status);
  }

  if (!schema) return payload as Result<S>;
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    console.error(`Unexpected response from ${method} ${path}`, parsed.error.issues);
    throw new ApiError(MESSAGES.requestFailed, response.status);
  }
  return parsed.data as Result<S>;
}

export const api = {
  get: <S extends z.ZodType | undefined = undefined>(
    path: string,
    schema?: S,
    signal?: AbortSignal,
  ) => apiRequest(path, { schema, signal }),
  post: <S extends z.ZodType | undefined = undefined>(path: string, body?: unknown, schema?: S) =>
    apiRequest(path, { method: 'POST', body, schema }),
  put: <S extends z.ZodType | undefined = undefined>(path: string, body?: unknown, schema?: S) =>
    apiRequest(path, { method: 'PUT', body, schema }),
  delete: <S extends z.ZodType | undefined = undefined>(path: string, schema?: S) =>
    apiRequest(path, { method: 'DELETE', schema }),
};
