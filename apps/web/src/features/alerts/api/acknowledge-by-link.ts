import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { alertResponseSchema, MESSAGES, type Alert } from '@pawguard/shared';
import { api, ApiError } from '@/lib/api-client';

/**
 * POST /api/alerts/acknowledge-link: acknowledges the heat alert a signed link names (from an
 * alert mail), for the person it was made for. No sign-in: the token is the credential.
 */
export async function acknowledgeByLink(token: string): Promise<Alert> {
  const { alert } = await api.post('/alerts/acknowledge-link', { token }, alertResponseSchema);
  return alert;
}

/** What tapping an acknowledge link came to, for the page to say. */
export type AcknowledgeOutcome =
  | { status: 'acknowledged'; alert: Alert }
  /** The alert ended before anyone acknowledged it (409). */
  | { status: 'resolved' }
  /** The link is not valid, has expired, or the alert is no longer its person's (404, 400). */
  | { status: 'invalid'; message: string }
  /** The server could not be reached, or asked to slow down (429): worth trying again. */
  | { status: 'failed'; message: string };

async function acknowledge(token: string): Promise<AcknowledgeOutcome> {
  try {
    return { status: 'acknowledged', alert: await acknowledgeByLink(token) };
  } catch (error) {
    if (!(error instanceof ApiError)) return { status: 'failed', message: MESSAGES.requestFailed };
    // 409: the alert is resolved, or it was raised since the link was sent (the server says
    // which; a raised alert must never read as over).
    if (error.status === 409)
      return /raised/i.test(error.message)
        ? { status: 'invalid', message: error.message }
        : { status: 'resolved' };
    if (error.status === 404 || error.status === 400)
      return { status: 'invalid', message: error.message };
    return { status: 'failed', message: error.message };
  }
}

/**
 * One request per link while the page is open: React's StrictMode runs an effect twice, and the
 * page mounts afresh when its header changes (signing in from it). A retry asks again.
 */
const attempts = new Map<string, Promise<AcknowledgeOutcome>>();

function acknowledgeOnce(token: string): Promise<AcknowledgeOutcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = acknowledge(token);
    attempts.set(token, attempt);
  }
  return attempt;
}

/**
 * Acknowledges the alert of `token` once, as the page opens (never before: a mail scanner that
 * only fetches the page runs no script, so it acknowledges nothing). Null while it is asked;
 * `retry` asks again after a failure. A session open in this browser sees the alert's new
 * state in its cards at once.
 */
export function useAcknowledgeLink(token: string | null) {
  const queryClient = useQueryClient();
  // The answer with the token it is for: another link opened in this tab starts afresh.
  const [answered, setAnswered] = useState<{
    token: string;
    outcome: AcknowledgeOutcome;
  } | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    if (!token) return;
    let current = true;
    void acknowledgeOnce(token).then((answer) => {
      if (!current) return;
      setAnswered({ token, outcome: answer });
      if (answer.status === 'acknowledged') {
        void queryClient.invalidateQueries({ queryKey: ['alerts'] });
        void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      }
    });
    return () => {
      current = false;
    };
  }, [token, round, queryClient]);

  const retry = useCallback(() => {
    if (!token) return;
    attempts.delete(token);
    setAnswered(null);
    setRound((n) => n + 1);
  }, [token]);

  return { outcome: answered && answered.token === token ? answered.outcome : null, retry };
}
