import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { streamEventSchema, streamTicketResponseSchema } from '@pawguard/shared';
import { env } from '@/config/env';
import { apiRequest, ApiError } from '@/lib/api-client';
import { applyStreamEvent, invalidateDeviceData } from '@/lib/live-cache';

/**
 * The only client of the live stream (DESIGN §4). POST /api/stream/ticket answers a ticket
 * that is good for one connection within 60 s; GET /api/stream?ticket=… is the
 * Server-Sent Events stream. Its events go into the query cache (lib/live-cache.ts), so
 * screens keep reading their usual queries and update without polling.
 *
 * EventSource reconnects on its own, but with the ticket already spent, so on any error
 * this closes the connection, waits (1 s, doubling up to 30 s), asks for a new ticket and
 * opens again, naming the last event it received (`last_event_id`): the server replays what
 * was missed, or sends `resync` when that is beyond its window. A connection that has no
 * event to name (the first, or a quiet one) fetches again whatever was loaded before it
 * opened. While the stream is not live, screens fall back to the spec's polling
 * (useLiveFallback).
 */

/** off: signed out; connecting: the first connection; live: open; down: waiting to retry. */
export type LiveStatus = 'off' | 'connecting' | 'live' | 'down';

let status: LiveStatus = 'off';
const listeners = new Set<() => void>();

function setStatus(next: LiveStatus): void {
  if (status === next) return;
  status = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getStatus = () => status;

export function useLiveStatus(): LiveStatus {
  return useSyncExternalStore(subscribe, getStatus, getStatus);
}

/** True while live events arrive. */
export function useLiveUpdates(): boolean {
  return useLiveStatus() === 'live';
}

/** A polling interval for a query that only applies while the stream is not live. */
export function useLiveFallback(intervalMs: number): number | undefined {
  return useLiveUpdates() ? undefined : intervalMs;
}

const EVENT_NAMES = ['reading', 'device', 'alert', 'notification', 'resync'] as const;
const MAX_RETRY_MS = 30_000;
/**
 * A stream closed with `superseded` gave its place to a newer one of the same session or
 * account (another tab; the server keeps at most 5 a session): this tab waits this long before
 * it takes one back, polling meanwhile, unless it is shown again first, so that a sixth tab
 * does not start a round of tabs closing each other's streams.
 */
export const SUPERSEDED_WAIT_MS = 5 * 60_000;

export type LiveStreamOptions = {
  fetchTicket?: () => Promise<string>;
  openSource?: (url: string) => EventSource;
  /** How long to wait before the nth retry (0-based). */
  retryDelayMs?: (attempt: number) => number;
};

async function fetchTicket(): Promise<string> {
  // A ticket changes nothing a GET answers: the app's early answers stay good.
  const { ticket } = await apiRequest('/stream/ticket', {
    method: 'POST',
    schema: streamTicketResponseSchema,
    changesData: false,
  });
  return ticket;
}

function openSource(url: string): EventSource {
  return new EventSource(url);
}

/** Exponential back-off with jitter, so a restarted server is not met by every tab at once. */
function retryDelayMs(attempt: number): number {
  const base = Math.min(MAX_RETRY_MS, 1000 * 2 ** attempt);
  return Math.round(base * (0.5 + Math.random() / 2));
}

/** Opens the stream for the signed-in session; returns the function that closes it. */
export function startLiveStream(queryClient: QueryClient, options: LiveStreamOptions = {}) {
  const ticketFor = options.fetchTicket ?? fetchTicket;
  const open = options.openSource ?? openSource;
  const delay = options.retryDelayMs ?? retryDelayMs;

  let stopped = false;
  let source: EventSource | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  let lastEventId = '';

  const onEvent = (event: Event) => {
    const { type, data, lastEventId: id } = event as MessageEvent<string>;
    if (id) lastEventId = id;
    let body: unknown = {};
    try {
      if (data) body = JSON.parse(data);
    } catch {
      console.warn(`Ignored a live ${type} event that is not JSON`);
      return;
    }
    const parsed = streamEventSchema.safeParse({ type, ...(body as object) });
    if (!parsed.success) {
      console.warn(`Ignored a live ${type} event`, parsed.error.issues);
      return;
    }
    applyStreamEvent(queryClient, parsed.data);
  };

  let superseded = false;

  const retry = () => {
    if (stopped) return;
    setStatus('down');
    const wait = superseded ? SUPERSEDED_WAIT_MS : delay(attempt);
    superseded = false;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, wait);
    attempt += 1;
  };

  const connect = async () => {
    let ticket: string;
    try {
      ticket = await ticketFor();
    } catch (error) {
      // A refused token ends the session (api-client), which stops this stream.
      if (stopped || (error instanceof ApiError && error.status === 401)) return;
      retry();
      return;
    }
    if (stopped) return;
    const resumeFrom = lastEventId;
    const query = new URLSearchParams({ ticket });
    if (resumeFrom) query.set('last_event_id', resumeFrom);
    let current: EventSource;
    try {
      current = open(`${env.apiBaseUrl}/stream?${query}`);
    } catch {
      retry();
      return;
    }
    source = current;
    current.onopen = () => {
      if (source !== current) return;
      attempt = 0;
      setStatus('live');
      // Resumed: the server replays what was missed (or says resync). Otherwise whatever was
      // fetched before this connection may have missed events.
      if (!resumeFrom) void invalidateDeviceData(queryClient, { olderThan: Date.now() });
    };
    current.onerror = () => {
      if (source !== current) return;
      current.close();
      source = null;
      retry();
    };
    for (const name of EVENT_NAMES) current.addEventListener(name, onEvent);
    current.addEventListener('superseded', () => {
      if (source === current) superseded = true;
    });
  };

  // Back online, or this tab shown again: try at once rather than at the end of the wait.
  const retryNow = () => {
    if (retryTimer === null) return;
    clearTimeout(retryTimer);
    retryTimer = null;
    void connect();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') retryNow();
  };
  window.addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', onVisible);

  setStatus('connecting');
  void connect();

  return () => {
    stopped = true;
    window.removeEventListener('online', retryNow);
    document.removeEventListener('visibilitychange', onVisible);
    if (retryTimer !== null) clearTimeout(retryTimer);
    source?.close();
    source = null;
    setStatus('off');
  };
}

/** Keeps the stream open while the component that calls it (the signed-in layout) is mounted. */
export function useLiveStream(options?: LiveStreamOptions): void {
  const queryClient = useQueryClient();
  useEffect(() => startLiveStream(queryClient, options), [queryClient, options]);
}
