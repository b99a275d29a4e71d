import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { BadRequestError } from './errors.js';
import { deadline } from './deadline.js';

/**
 * A push subscription's endpoint is a URL the server calls (PUSH-1, SSRF): only https, only to
 * hosts whose every address is public. Checked when a browser subscribes and again when each
 * push is sent, by the connection itself (`publicOnlyAgent`), so a name that resolves to a
 * public address at subscribe time and to 127.0.0.1 later is refused then too.
 *
 * `allowPrivate` (PUSH_ALLOW_PRIVATE_ENDPOINTS=1, tests and local demos only) also lets loopback
 * and private hosts through, still over https. Link-local (the cloud metadata address
 * 169.254.169.254 among them) and the other special ranges never are.
 */

/** What resolves a host name to its addresses (the system resolver; tests may pass another). */
export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** The only ranges a push may go to; with `allowPrivate`, also loopback and private ones. */
const PUBLIC = new Set(['unicast']);
const PRIVATE = new Set(['loopback', 'private', 'uniqueLocal']);

/** ::/96, the deprecated IPv4-compatible IPv6 addresses: never a push service's. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** Whether `address` (IPv4 or IPv6, an IPv4-mapped IPv6 judged as its IPv4) may be called. */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (v6.match(IPV4_COMPATIBLE)) return false;
  }
  const range = ip.range();
  return PUBLIC.has(range) || (allowPrivate && PRIVATE.has(range));
}

const REFUSED = 'endpoint must be an https address of a public push service';
/** How long a look-up of the endpoint's host may take. */
const LOOKUP_TIMEOUT_MS = 5_000;
/**
 * A host as push services name theirs: letters, digits, hyphens and dots (or an IP address).
 * Anything else is refused before any parser can read it two ways (the URL standard's and
 * Node's legacy url.parse, which web-push connects with, disagree on some characters).
 */
const PLAIN_HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$/i;

/**
 * Why an endpoint is refused: `policy` (never to be called: http, a private address…), or
 * `lookup` (its host could not be resolved now: at send time, an outage worth a retry).
 */
export class PushEndpointError extends BadRequestError {
  constructor(
    message: string,
    readonly reason: 'policy' | 'lookup',
  ) {
    super(message);
  }
}

/**
 * Checks a subscription's endpoint before it is stored: https, no user name or password in it,
 * and a host whose addresses are all allowed. Throws a BadRequestError saying what is wrong.
 */
export async function checkPushEndpoint(
  endpoint: string,
  opts: { allowPrivate: boolean; lookup?: Lookup },
): Promise<URL> {
  const refuse = (message: string) => new PushEndpointError(message, 'policy');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw refuse('endpoint must be a URL');
  }
  if (url.protocol !== 'https:') throw refuse('endpoint must be an https address');
  if (url.username || url.password) throw refuse('endpoint must not carry a user name or password');
  // As written, not as parsed: one reading of the host, whoever parses it next.
  const written = /^https:\/\/(\[[0-9a-f:.]+\]|[^/:?#]*)(?::\d+)?(?:[/?#]|$)/i.exec(endpoint)?.[1];
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!written || !(net.isIP(host) || PLAIN_HOST.test(written)))
    throw refuse('endpoint’s host must be a plain host name or address');
  // Push services listen on 443; another port is a test's or a demo's receiver.
  if (url.port !== '' && url.port !== '443' && !opts.allowPrivate)
    throw refuse('endpoint must be an https address of a public push service');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    const limit = deadline(LOOKUP_TIMEOUT_MS, 'the look-up took too long');
    try {
      addresses = (await Promise.race([(opts.lookup ?? systemLookup)(host), limit.promise])).map(
        (a) => a.address,
      );
    } catch {
      throw new PushEndpointError('endpoint’s host could not be found', 'lookup');
    } finally {
      limit.cancel();
    }
  }
  if (addresses.length === 0 || !addresses.every((a) => addressAllowed(a, opts.allowPrivate)))
    throw refuse(REFUSED);
  return url;
}

/** Thrown by the connection when a push's host resolves to an address it may not call. */
export class RefusedAddressError extends Error {
  readonly code = 'EPUSHADDRESS';
  constructor(host: string) {
    super(`push endpoint host ${host} resolves to an address pushes may not go to`);
  }
}

/**
 * An https agent whose connections look their host up themselves and refuse any address
 * `addressAllowed` does not take: the check at send time, on the very address connected to
 * (no window between a check and the connection for DNS to change its answer). A host given as
 * an IP address is not looked up by Node, so the sender checks those itself (`checkPushEndpoint`).
 */
export function publicOnlyAgent(allowPrivate: boolean, lookup: Lookup = systemLookup): https.Agent {
  const guarded: net.LookupFunction = (hostname, options, callback) => {
    lookup(hostname).then(
      (found) => {
        const ok = found.filter((a) => addressAllowed(a.address, allowPrivate));
        if (ok.length === 0 || ok.length !== found.length)
          return callback(new RefusedAddressError(hostname), '', 4);
        const wanted = typeof options === 'object' && options.family ? options.family : 0;
        const pick = ok.find((a) => !wanted || a.family === wanted) ?? ok[0]!;
        if (typeof options === 'object' && options.all)
          return (callback as unknown as (e: null, a: typeof ok) => void)(null, ok);
        callback(null, pick.address, pick.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 4),
    );
  };
  return new https.Agent({ keepAlive: true, maxSockets: 8, lookup: guarded });
}
