import type { TestApp } from './app.js';
import { bearer } from './app.js';

export interface SseEvent {
  id?: string;
  event?: string;
  data?: unknown;
}

/** A live-stream connection over real HTTP, collecting its events as they arrive. */
export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** Comment lines received (`: heartbeat`). */
  comments: string[];
  /** Resolves with the first event (already received or still to come) that matches. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** The test app's HTTP address, listening on a free port from the first call of a file on. */
export async function listen(t: TestApp): Promise<string> {
  const bound = t.app.server.listening ? t.app.server.address() : null;
  if (bound && typeof bound === 'object') return `http://127.0.0.1:${bound.port}`;
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}

export async function ticketFor(t: TestApp, token: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/stream/ticket',
    headers: bearer(token),
  });
  if (res.statusCode !== 201) throw new Error(`ticket: ${res.statusCode} ${res.body}`);
  return res.json().ticket;
}

export async function openStream(
  base: string,
  ticket: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/stream?ticket=${encodeURIComponent(ticket)}${query}`, {
    headers,
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  if (res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let at;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const e: SseEvent = {};
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) e.id = line.slice(4);
              else if (line.startsWith('event: ')) e.event = line.slice(7);
              else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
              else if (line.startsWith(':')) comments.push(line.slice(1).trim());
            }
            if (!e.event) continue;
            events.push(e);
            for (const w of [...waiters]) {
              if (w.match(e)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(e);
              }
            }
          }
        }
      } catch {
        // aborted
      }
      resolveEnded();
    })();
  } else resolveEnded();
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    ended,
    next(match, timeoutMs = 5_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching event within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
    close: () => controller.abort(),
  };
}

export const readingOf = (deviceUuid: string) => (e: SseEvent) =>
  e.event === 'reading' && (e.data as { device: string }).device === deviceUuid;

/** Waits until `cond` holds, checking every 10 ms (bounded: fails after `timeoutMs`). */
export async function until(cond: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
