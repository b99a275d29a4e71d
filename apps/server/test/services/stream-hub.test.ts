import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '@pawguard/shared';
import { LocalEventBus, type BusMessage } from '../../src/services/event-bus.js';
import { StreamHub } from '../../src/services/stream-hub.js';
import { systemClock } from '../../src/services/clock.js';
import type { StreamTicketsRepository } from '../../src/repositories/stream-tickets-repository.js';
import type { SessionsRepository } from '../../src/repositories/sessions-repository.js';

/** An open SSE response as the hub uses it: what was written, event by event. */
class FakeStream extends EventEmitter {
  written: string[] = [];
  writableEnded = false;
  destroyed = false;
  writableLength = 0;
  write(chunk: string) {
    this.written.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
  /** The event types received, in order (comments and the opening lines left out). */
  get events(): string[] {
    return this.written.flatMap((w) => /^event: (\w+)$/m.exec(w)?.[1] ?? []);
  }
}

const released = (device: string): StreamEvent =>
  ({ type: 'device', device, change: 'released' }) as unknown as StreamEvent;

function hub(
  roles: Map<string, string> = new Map(),
  /** Collars shared with a user (docs/pack.md), by user. */
  shared: Map<string, string[]> = new Map(),
) {
  const bus = new LocalEventBus();
  const sessions = {
    liveSessions: async (ids: string[]) =>
      ids.flatMap((id) => (roles.has(id) ? [{ id, role: roles.get(id)! }] : [])),
  } as unknown as SessionsRepository;
  const h = new StreamHub({
    bus,
    tickets: {} as StreamTicketsRepository,
    sessions,
    sharedDevices: async (users: string[]) =>
      new Map(users.flatMap((u) => (shared.has(u) ? [[u, shared.get(u)!] as const] : []))),
    clock: systemClock,
    log: { warn: () => undefined } as never,
  });
  const open = (userId: string, admin = false, sessionId = `s-${userId}-${Math.random()}`) => {
    const res = new FakeStream();
    roles.set(sessionId, admin ? 'admin' : 'user');
    h.attach(
      res as unknown as ServerResponse,
      { userId, sessionId, admin },
      undefined,
      shared.get(userId) ?? [],
    );
    return res;
  };
  const publish = (...messages: BusMessage[]) => bus.publish(messages);
  return { h, open, publish, roles, shared };
}

describe('StreamHub delivery', () => {
  it('brings an event to every stream of its audience and to admins, once each, and to no other owner', () => {
    const { open, publish } = hub();
    const [a1, a2, b, admin, adminInAudience] = [
      open('ann'),
      open('ann'),
      open('bob'),
      open('root', true),
      open('ann-admin', true),
    ];
    publish({ audience: ['ann', 'ann-admin', 'ann'], event: released('d1') });
    expect(a1.events).toEqual(['device']);
    expect(a2.events).toEqual(['device']);
    expect(admin.events).toEqual(['device']);
    expect(adminInAudience.events).toEqual(['device']);
    expect(b.events).toEqual([]);
  });

  it('keeps a person’s own notifications from admins outside its audience; a resync goes to all', () => {
    const { open, publish } = hub();
    const [ann, admin] = [open('ann'), open('root', true)];
    publish({ audience: ['ann'], personal: true, event: released('d1') });
    publish({ audience: [], event: { type: 'resync' } as StreamEvent });
    expect(ann.events).toEqual(['device', 'resync']);
    expect(admin.events).toEqual(['resync']);
  });

  it('brings a shared collar’s events to its pet’s pack (docs/pack.md), never a person’s own notification', async () => {
    const shared = new Map([['cara', ['d1']]]);
    const { h, open, publish } = hub(new Map(), shared);
    const [ann, cara, bob] = [open('ann'), open('cara'), open('bob')];
    publish({ audience: ['ann'], event: released('d1') });
    publish({ audience: ['ann'], event: released('d2') });
    publish({
      audience: ['ann'],
      personal: true,
      event: { type: 'notification', notification: { device: 'd1' } } as never,
    });
    expect(ann.events).toEqual(['device', 'device', 'notification']);
    expect(cara.events).toEqual(['device']);
    expect(bob.events).toEqual([]);
    // The membership ends: at the next heartbeat the stream stops watching.
    shared.delete('cara');
    await h.beat();
    publish({ audience: ['ann'], event: released('d1') });
    expect(cara.events).toEqual(['device']);
  });

  it('writes nothing more to a stream once it has closed', () => {
    const { h, open, publish } = hub();
    const ann = open('ann');
    ann.emit('close');
    publish({ audience: ['ann'], event: released('d1') });
    expect(ann.events).toEqual([]);
    expect(h.size).toBe(0);
  });

  it('follows a role change at the heartbeat: a demoted admin sees only their own, a promoted user everyone’s', async () => {
    const { h, open, publish, roles } = hub();
    const admin = open('root', true, 'admin-session');
    const user = open('carl', false, 'user-session');
    roles.set('admin-session', 'user');
    roles.set('user-session', 'admin');
    await h.beat();
    publish({ audience: ['ann'], event: released('d1') });
    expect(admin.events).toEqual([]);
    expect(user.events).toEqual(['device']);
  });

  it('forgets a stream in every index however it ends: closed, logged out, ended at the heartbeat', async () => {
    const { h, open, publish, roles } = hub();
    const closed = open('ann');
    const loggedOut = open('bob', false, 'bob-session');
    const ended = open('root', true, 'root-session');
    closed.emit('close');
    h.closeSession('bob-session');
    roles.delete('root-session');
    await h.beat();
    expect(h.size).toBe(0);
    publish({ audience: ['ann', 'bob'], event: released('d1') });
    for (const s of [closed, loggedOut, ended]) expect(s.events).toEqual([]);
    // A new stream of the same users is served as if none had been there.
    const again = open('root', true);
    publish({ audience: ['ann'], event: released('d2') });
    expect(again.events).toEqual(['device']);
  });

  it('keeps a stream that opens while the heartbeat reads the sessions', async () => {
    const { h, open, publish } = hub();
    open('ann', false, 'ann-session');
    let late: FakeStream | undefined;
    const sessions = (h as unknown as { d: { sessions: SessionsRepository } }).d.sessions;
    const read = sessions.liveSessions.bind(sessions);
    sessions.liveSessions = async (ids: string[], now: string) => {
      late ??= open('bob', false, 'bob-session');
      return read(ids, now);
    };
    await h.beat();
    publish({ audience: ['bob'], event: released('d1') });
    expect(late!.events).toEqual(['device']);
    expect(h.size).toBe(2);
  });

  it('replays from the ring what a reconnecting stream missed, framed as it was sent live', () => {
    const { h, open, publish } = hub();
    const live = open('ann');
    publish({ audience: ['bob'], event: released('d0') });
    publish({ audience: ['ann'], event: released('d1') });
    const id = /^id: (\S+)$/m.exec(live.written.at(-1)!)![1]!;
    const [boot, n] = id.split('.');
    const again = new FakeStream();
    h.attach(
      again as unknown as ServerResponse,
      { userId: 'ann', sessionId: 's', admin: false },
      `${boot}.${Number(n) - 2}`,
    );
    expect(again.written.filter((w) => w.startsWith('id:'))).toEqual([live.written.at(-1)]);
  });
});
