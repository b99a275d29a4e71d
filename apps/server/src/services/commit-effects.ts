import type { BusMessage, EventBus } from './event-bus.js';
import type { Metrics } from './metrics.js';

/**
 * What a transaction caused, for after its commit: one value, returned by whatever wrote it
 * (ingest, the alerts), and handled in one place (`CommitEffects.handle`) once it has committed.
 */
export interface Effects {
  /** Live events, in the order they happened (a reading's own event before what it caused). */
  events: BusMessage[];
  /** Mail may have been queued in the outbox: the worker may deliver now. */
  mail: boolean;
  /** Pushes may have been queued in the outbox: the push worker may deliver now. */
  push: boolean;
  /** Alerts opened (counted once committed). */
  opened: { type: string; level: string | null }[];
}

export const noEffects = (): Effects => ({ events: [], mail: false, push: false, opened: [] });

/** Adds `more` to `into` (its events after those already there). */
export function addEffects(into: Effects, more: Effects): Effects {
  for (const e of more.events) into.events.push(e);
  into.mail ||= more.mail;
  into.push ||= more.push;
  for (const o of more.opened) into.opened.push(o);
  return into;
}

/** What an outbox worker offers the rest: a wake-up after a commit that queued its rows. */
export interface MailKick {
  kick(): void;
}

/** Where the effects of a committed transaction go: the event bus, the outbox workers, metrics. */
export class CommitEffects {
  constructor(
    private readonly d: {
      bus: EventBus;
      mail: MailKick;
      push: MailKick;
      log: { warn: (o: object, msg: string) => void };
      metrics?: Metrics;
    },
  ) {}

  /**
   * After a commit: its live events published (`lost` is logged when they cannot be: what
   * is stored stays stored and acknowledged, a screen is a moment behind), the mail and push
   * workers woken, the alerts opened counted.
   */
  handle(effects: Effects, lost: string): void {
    try {
      if (effects.events.length) this.d.bus.publish(effects.events);
    } catch (err) {
      this.d.log.warn({ err }, lost);
    }
    for (const a of effects.opened) this.d.metrics?.alertOpened(a.type, a.level);
    if (effects.mail) this.d.mail.kick();
    if (effects.push) this.d.push.kick();
  }
}
