import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { STREAM_TICKET_TTL_MS, type StreamEvent } from '@pawguard/shared';
import type { StreamTicketsRepository } from '../repositories/stream-tickets-repository.js';
import type { SessionsRepository } from '../repositories/sessions-repository.js';
import { isAccessMessage, type BusItem, type BusMessage, type EventBus } from './event-bus.js';
import type { Clock } from './clock.js';
import { UnauthorizedError } from './errors.js';

/** Events kept for replay to a client that reconnects with Last-Event-ID. */
export const REPLAY_WINDOW = 2_000;
/** A comment line on every open stream this often keeps proxies and browsers from timing out. */
export const HEARTBEAT_MS = 20_000;
/**
 * Open streams a session may have on one instance, and an account over all its sessions: one
 * more closes that session's (or account's) oldest, so a reloaded tab is never locked out and
 * a flood of tickets holds no more than this many connections.
 */
export const STREAMS_PER_SESSION = 5;
export const STREAMS_PER_ACCOUNT = 10;
/** Said to a stream closed because a newer one of its session or account took its place. */
const SUPERSEDED_FRAME = 'event: superseded\ndata: {}\n\n';

/**
 * One open stream as the hub writes to it: frames, its end, and word when it closes. The
 * members are those of a Node.js writable stream, so the route hands over the response it
 * has opened (its headers sent) as it is; the hub itself knows nothing of HTTP.
 */
export interface StreamTransport {
  write(frame: string): unknown;
  /** Ends the stream once what was written has gone. */
  end(): unknown;
  /** Drops the connection at once. */
  destroy(): unknown;
  /** `close`: the connection is gone; `error`: a write failed (the client went away). */
  on(event: 'close' | 'error', listener: () => void): unknown;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
  /** What was written and not yet sent, in bytes. */
  readonly writableLength: number;
}

/** An event kept for replay; framed once, when first written to a client. */
interface RingEntry {
  n: number;
  message: BusMessage;
  frame?: string;
}

interface Client {
  res: StreamTransport;
  userId: string;
  sessionId: string;
  admin: boolean;
  /** The collars on pets shared with this user now (docs/pack.md): their events come too. */
  shared: Set<string>;
}

/** The collar an event is about, when it is about one (a reading, a device change, an alert). */
function deviceOf(message: BusMessage): string | undefined {
  const e = message.event;
  if (e.type === 'reading' || e.type === 'device') return e.device;
  if (e.type === 'alert') return e.alert.device;
  return undefined;
}

const hashTicket = (t: string) => hash('sha256', t, 'hex');

/**
 * The live stream's server side. Event ids are `<boot>.<n>`: n counts up on this instance,
 * and boot names the process, so an id from another instance or an earlier process is
 * recognised as such. A reconnect whose Last-Event-ID is within the last REPLAY_WINDOW
 * events gets what it missed; one from further back, or from elsewhere, gets a `resync`
 * event and refetches.
 *
 * A logout, a role change or a deleted account ends the streams concerned on every instance at
 * once (an access message on the bus); the stream reconnects, if its session still may, with
 * the role it has now. Every heartbeat also checks, in one query for all streams, that each
 * stream's session is still live and re-reads its role, for sessions that simply expired.
 */
export class StreamHub {
  private readonly boot = randomUUID().slice(0, 8);
  private seq = 0;
  /** The last REPLAY_WINDOW events. */
  private readonly ring: RingEntry[] = [];
  private readonly clients = new Set<Client>();
  /**
   * The same streams by user, and the admins' apart: an event goes to its audience and the
   * admins without looking at every other owner's stream (a reading has an audience of one).
   */
  private readonly byUser = new Map<string, Set<Client>>();
  private readonly admins = new Set<Client>();
  /** The streams watching a collar shared with their user, by collar. */
  private readonly watchers = new Map<string, Set<Client>>();
  private readonly unsubscribe: () => void;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly d: {
      bus: EventBus;
      tickets: StreamTicketsRepository;
      sessions: SessionsRepository;
      /**
       * The collars on pets shared with each of these users at `now` (docs/pack.md): read when a
       * stream opens and at every heartbeat, so a membership that began, ended or ran out
       * reaches open streams within a heartbeat (a change the pack makes ends the member's
       * streams at once: closeUser).
       */
      sharedDevices: (userIds: string[], now: string) => Promise<Map<string, string[]>>;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {
    this.unsubscribe = d.bus.subscribe((m) => this.onMessage(m));
  }

  get size(): number {
    return this.clients.size;
  }

  start(): void {
    this.heartbeat ??= setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** POST /api/stream/ticket: a random single-use ticket for this session, valid 60 s. */
  async issueTicket(userId: string, sessionId: string): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    const now = this.d.clock.now();
    await this.d.tickets.insert({
      ticket_hash: hashTicket(ticket),
      session_id: sessionId,
      user_id: userId,
      expires_at: new Date(now.getTime() + STREAM_TICKET_TTL_MS).toISOString(),
      used_at: null,
    });
    return ticket;
  }

  /** Spends the ticket; answers the session it was issued to, if that session is still live. */
  async redeem(ticket: string): Promise<{ userId: string; sessionId: string; admin: boolean }> {
    const now = this.d.clock.now().toISOString();
    const spent = await this.d.tickets.spend(hashTicket(ticket), now);
    const live = spent ? await this.d.sessions.liveSessions([spent.session_id], now) : [];
    if (!spent || !live[0]) {
      throw new UnauthorizedError('The stream ticket is invalid, expired or already used');
    }
    return { userId: spent.user_id, sessionId: spent.session_id, admin: live[0].role === 'admin' };
  }

  /**
   * The collars shared with a person now, which their stream watches besides their own
   * (docs/pack.md); read before the stream is attached, so its replay includes them. An admin
   * sees every collar anyway.
   */
  async sharedWith(who: { userId: string; admin: boolean }): Promise<string[]> {
    if (who.admin) return [];
    const found = await this.d.sharedDevices([who.userId], this.d.clock.now().toISOString());
    return found.get(who.userId) ?? [];
  }

  /** Adds an open stream (watching `shared`, from sharedWith) and replays what it missed. */
  attach(
    res: StreamTransport,
    who: { userId: string; sessionId: string; admin: boolean },
    lastEventId: string | undefined,
    shared: readonly string[] = [],
  ): void {
    const client: Client = { res, ...who, shared: new Set() };
    this.add(client);
    this.watch(client, shared);
    this.closeOldest(client, (c) => c.sessionId === client.sessionId, STREAMS_PER_SESSION);
    this.closeOldest(client, () => true, STREAMS_PER_ACCOUNT);
    res.on('close', () => this.forget(client));
    // A connection reset while we write is the browser gone, not a server fault.
    res.on('error', () => this.end(client));
    res.write(`retry: 3000\n: connected\n\n`);
    if (lastEventId) this.replay(client, lastEventId);
  }

  /** Ends every stream of a session at once, on every instance (logout). */
  closeSession(sessionId: string): void {
    this.d.bus.publish([{ access: { sessions: [sessionId] } }]);
  }

  /**
   * Ends every stream of a user at once, on every instance: their role changed (each stream
   * reconnects seeing what the new role sees) or their account is gone.
   */
  closeUser(userId: string): void {
    this.d.bus.publish([{ access: { users: [userId] } }]);
  }

  /**
   * Over `max` streams of this user matching `same`: the oldest of them end (Sets keep order),
   * told first with a `superseded` event, so that a tab whose stream another took over waits
   * instead of reconnecting at once and closing the next oldest in turn.
   */
  private closeOldest(client: Client, same: (c: Client) => boolean, max: number): void {
    const matching = [...(this.byUser.get(client.userId) ?? [])].filter(same);
    for (const c of matching.slice(0, Math.max(0, matching.length - max))) {
      if (!c.res.writableEnded) c.res.write(SUPERSEDED_FRAME);
      this.end(c);
    }
  }

  private add(client: Client): void {
    this.clients.add(client);
    let own = this.byUser.get(client.userId);
    if (!own) this.byUser.set(client.userId, (own = new Set()));
    own.add(client);
    if (client.admin) this.admins.add(client);
  }

  private forget(client: Client): void {
    this.watch(client, []);
    this.clients.delete(client);
    this.admins.delete(client);
    const own = this.byUser.get(client.userId);
    own?.delete(client);
    if (own?.size === 0) this.byUser.delete(client.userId);
  }

  /** Ends a stream and forgets it at once, so nothing is written to it afterwards. */
  private end(client: Client): void {
    this.forget(client);
    if (!client.res.writableEnded) client.res.end();
  }

  private replay(client: Client, lastEventId: string): void {
    const [boot, n] = lastEventId.split('.');
    const last = Number(n);
    const oldest = this.ring[0]?.n ?? this.seq + 1;
    if (boot !== this.boot || !Number.isInteger(last) || last < oldest - 1 || last > this.seq) {
      this.write(client, this.frame(++this.seq, { type: 'resync' }));
      return;
    }
    for (const entry of this.ring) {
      if (entry.n > last && this.sees(client, entry.message))
        this.write(client, (entry.frame ??= this.frame(entry.n, entry.message.event)));
    }
  }

  private onMessage(message: BusItem): void {
    if (isAccessMessage(message)) {
      const sessions = new Set(message.access.sessions);
      for (const userId of message.access.users ?? [])
        for (const c of this.byUser.get(userId) ?? []) this.end(c);
      if (sessions.size > 0)
        for (const c of this.clients) if (sessions.has(c.sessionId)) this.end(c);
      return;
    }
    const n = ++this.seq;
    const entry: RingEntry = { n, message };
    if (message.event.type !== 'resync') {
      this.ring.push(entry);
      if (this.ring.length > REPLAY_WINDOW) this.ring.shift();
    }
    const frame = () => (entry.frame ??= this.frame(n, message.event));
    if (message.event.type === 'resync') {
      for (const c of this.clients) this.write(c, frame());
      return;
    }
    const audience = message.audience.length > 1 ? new Set(message.audience) : message.audience;
    for (const userId of audience) {
      const own = this.byUser.get(userId);
      if (own) for (const c of own) this.write(c, frame());
    }
    if (!message.personal) {
      // An admin in the audience has had it above.
      for (const c of this.admins) if (!message.audience.includes(c.userId)) this.write(c, frame());
      // The pet's pack, but whoever has had it above.
      const device = deviceOf(message);
      for (const c of (device && this.watchers.get(device)) || [])
        if (!c.admin && !message.audience.includes(c.userId)) this.write(c, frame());
    }
  }

  private sees(client: Client, message: BusMessage): boolean {
    if (message.event.type === 'resync' || message.audience.includes(client.userId)) return true;
    if (message.personal) return false;
    if (client.admin) return true;
    const device = deviceOf(message);
    return device !== undefined && client.shared.has(device);
  }

  /** Points a stream's watch at `devices` (none: it stops watching). */
  private watch(client: Client, devices: readonly string[]): void {
    for (const d of client.shared) {
      const set = this.watchers.get(d);
      set?.delete(client);
      if (set?.size === 0) this.watchers.delete(d);
    }
    client.shared = new Set(devices);
    if (!this.clients.has(client)) return;
    for (const d of client.shared) {
      let set = this.watchers.get(d);
      if (!set) this.watchers.set(d, (set = new Set()));
      set.add(client);
    }
  }

  /** Reads which shared collars these streams watch (in one query for all their users). */
  private async loadShared(streams: Client[]): Promise<void> {
    const users = [...new Set(streams.filter((c) => !c.admin).map((c) => c.userId))];
    if (users.length === 0) return;
    try {
      const now = this.d.clock.now().toISOString();
      const found = new Map<string, string[]>();
      for (let i = 0; i < users.length; i += 500)
        for (const [u, ids] of await this.d.sharedDevices(users.slice(i, i + 500), now))
          found.set(u, ids);
      for (const c of streams) if (this.clients.has(c)) this.watch(c, found.get(c.userId) ?? []);
    } catch (err) {
      // Fail closed: until they can be read again, streams watch their own collars only.
      for (const c of streams) this.watch(c, []);
      this.d.log.warn({ err }, 'live stream: shared collars not read');
    }
  }

  private frame(n: number, event: StreamEvent): string {
    return `id: ${this.boot}.${n}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  }

  private write(client: Client, frame: string): void {
    if (client.res.writableEnded || client.res.destroyed) {
      this.forget(client);
      return;
    }
    // A client that cannot keep up (a full socket buffer) is dropped; it reconnects and
    // catches up from the replay window instead of growing our memory.
    if (client.res.writableLength > 1_000_000) {
      this.forget(client);
      client.res.destroy();
      return;
    }
    client.res.write(frame);
  }

  /** Heartbeat and session check; runs every HEARTBEAT_MS (tests call it directly). */
  async beat(): Promise<void> {
    if (this.clients.size === 0) return;
    for (const c of this.clients) this.write(c, ': heartbeat\n\n');
    try {
      // Judged: the streams open now. One that opens while the sessions are read was let in by
      // a ticket just spent on a live session; it waits for the next beat.
      const checked = [...this.clients];
      const ids = [...new Set(checked.map((c) => c.sessionId))];
      const now = this.d.clock.now().toISOString();
      const live = new Map<string, string>();
      for (let i = 0; i < ids.length; i += 500) {
        for (const s of await this.d.sessions.liveSessions(ids.slice(i, i + 500), now))
          live.set(s.id, s.role);
      }
      for (const c of checked) {
        if (!this.clients.has(c)) continue; // closed meanwhile
        const role = live.get(c.sessionId);
        if (role === undefined) this.end(c);
        else if ((c.admin = role === 'admin')) this.admins.add(c);
        else this.admins.delete(c);
      }
    } catch (err) {
      this.d.log.warn({ err }, 'live stream session check failed');
    }
    await this.loadShared([...this.clients]);
  }

  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.unsubscribe();
    for (const c of this.clients) this.end(c);
  }
}
