import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** While true, every message is taken in and never answered (a hanging server). */
  hang: boolean;
  /** Messages taken in and left unanswered so far. */
  readonly hanging: number;
  /** While set, every connection is greeted with this reply code (e.g. 554) and closed. */
  greeting: number | null;
  /** While set, a login is required and only this password is taken (535 otherwise). */
  password: string | null;
  /** Recipients refused after RCPT TO with 550 (no such mailbox). */
  refused: Set<string>;
  /** While true, every recipient is refused with "550 5.7.1 Relaying denied" (a policy). */
  relayDenied: boolean;
  /** Connections greeted with a refusal, and logins refused, so far. */
  readonly refusals: { greetings: number; logins: number };
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (no TLS) that keeps every message it accepts. Logins are
 * optional unless `password` is set; `greeting` and `refused` make it refuse as a real one does.
 */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const state = {
    hang: false,
    hanging: 0,
    greeting: null as number | null,
    password: null as string | null,
    relayDenied: false,
  };
  const refused = new Set<string>();
  const refusals = { greetings: 0, logins: 0 };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      if (state.greeting === null) return callback();
      refusals.greetings++;
      callback(
        Object.assign(new Error('Service unavailable, try later'), {
          responseCode: state.greeting,
        }),
      );
    },
    onAuth(auth, _session, callback) {
      if (state.password !== null && auth.password !== state.password) {
        refusals.logins++;
        return callback(
          Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }),
        );
      }
      callback(null, { user: auth.username });
    },
    onMailFrom(_address, session, callback) {
      if (state.password !== null && !session.user)
        return callback(Object.assign(new Error('Authentication required'), { responseCode: 530 }));
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (state.relayDenied)
        return callback(Object.assign(new Error('5.7.1 Relaying denied'), { responseCode: 550 }));
      if (refused.has(address.address))
        return callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.hang) {
          state.hanging++;
          return; // never answers: the client's timeouts must end it
        }
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    get hang() {
      return state.hang;
    },
    set hang(v: boolean) {
      state.hang = v;
    },
    get hanging() {
      return state.hanging;
    },
    get greeting() {
      return state.greeting;
    },
    set greeting(v: number | null) {
      state.greeting = v;
    },
    get password() {
      return state.password;
    },
    set password(v: string | null) {
      state.password = v;
    },
    get relayDenied() {
      return state.relayDenied;
    },
    set relayDenied(v: boolean) {
      state.relayDenied = v;
    },
    refused,
    refusals,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A loopback port with nothing listening (a mail server that is down). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const bytes = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');
const qp = (s: string) =>
  bytes(s.replace(/=([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));

/** The body of a received mail, quoted-printable decoded (both parts, as one string). */
export function bodyOf(mail: ReceivedMail): string {
  return qp(mail.raw.replace(/=\r?\n/g, ''));
}

/** A header of a received mail, unfolded and with its encoded words decoded. */
export function headerOf(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : qp(text.replace(/_/g, ' ')),
    );
}
