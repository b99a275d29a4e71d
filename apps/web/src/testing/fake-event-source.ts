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
