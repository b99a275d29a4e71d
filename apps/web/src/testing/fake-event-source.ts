import { act } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { Reading } from '@pawguard/shared';
import { startLiveStream } from '@/lib/realtime';
import { patchFor } from './devices';

/** A stand-in for the browser's EventSource that a test opens, feeds and breaks by hand. */
export class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  static reset() {
    FakeEventSource.instances = [];
  }
  static get latest(): FakeEventSource {
    const last = FakeEventSource.instances.at(-1);
    if (!last) throw new Error('No EventSource was opened');
    return last;
  }

  readonly url: string;
  readyState = 0;
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(url: string) {
    super();
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  emit(type: string, data: unknown, lastEventId = '') {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
  }

  fail() {
    this.onerror?.(new Event('error'));
  }

  close() {
    this.readyState = 2;
    this.closed = true;
  }
}

/** Options for startLiveStream: numbered tickets, the fake source, no waiting before retries. */
export function fakeStreamOptions() {
  let n = 0;
  const tickets: string[] = [];
  return {
    tickets,
    options: {
      fetchTicket: async () => {
        const ticket = `ticket-${++n}`;
        tickets.push(ticket);
        return ticket;
      },
      openSource: (url: string) => new FakeEventSource(url) as unknown as EventSource,
      retryDelayMs: () => 0,
    },
  };
}

/** Starts the live stream on the fake source and opens it; answers the function that stops it. */
export async function openFakeStream(queryClient: QueryClient): Promise<() => void> {
  const stop = startLiveStream(queryClient, fakeStreamOptions().options);
  await act(async () => {});
  act(() => FakeEventSource.latest.open());
  return stop;
}

/** The stream's event for a reading a device stored. */
export const readingEvent = (device: string, reading: Reading) => ({
  type: 'reading' as const,
  device,
  reading,
  patch: patchFor(reading),
});

/** The open stream delivers a device's reading. */
export function sendReading(device: string, reading: Reading, lastEventId = ''): void {
  FakeEventSource.latest.emit('reading', readingEvent(device, reading), lastEventId);
}
