import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networksOf } from '../networks.ts';

/**
 * The one way the server calls out to an address a project administrator typed (a back-channel
 * logout URI; issue 24's webhooks next): it must never become a way into the operator's network.
 * docs/decisions/0029.
 *
 * - Only http(s). The host's addresses are resolved once, and the request connects to the address
 *   checked (a name that resolves elsewhere a moment later — DNS rebinding — is never asked again).
 * - Loopback, private, link-local, shared (CGNAT), multicast, reserved and unspecified addresses are
 *   refused, IPv4-mapped and NAT64 IPv6 forms too, unless the operator allows their network
 *   (OUTGOING_ALLOWED_NETWORKS, README "Configuration").
 * - Redirects are not followed (a 3xx is the answer); each call has a deadline; the response body is
 *   read to at most a few kilobytes and dropped.
 */
export interface OutgoingClient {
  /**
   * POSTs `body` (`contentType`, and `headers` besides) to `url` and answers its status, or throws
   * an OutgoingRefusal / OutgoingFailure.
   */
  post(url: string, body: string, contentType: string, headers?: Record<string, string>): Promise<OutgoingAnswer>;
  /**
   * Why the server would not call `url` now (its form, or an address its name resolves to), or
   * null: a place is checked when it is saved too, not only at each call (webhook endpoints).
   */
  refusal(url: string): Promise<'url_refused' | 'address_refused' | null>;
}

export interface OutgoingAnswer {
  status: number;
  /** Milliseconds from the call to the answer's end. */
  ms: number;
}

/**
 * Why a call did not get an answer, in a word fit for an audit event a project's administrators
 * read: never the address a name resolved to nor the system's error text (those stay in the
 * message, for the server's log).
 */
export type OutgoingReason = 'url_refused' | 'address_refused' | 'dns_failed' | 'connect_failed' | 'tls_failed' | 'timeout';

/** The address is not one the server may call (nothing was sent). */
export class OutgoingRefusal extends Error {
  override name = 'OutgoingRefusal';
  readonly reason: 'url_refused' | 'address_refused';
  constructor(message: string, reason: 'url_refused' | 'address_refused') {
    super(message);
    this.reason = reason;
  }
}

/** The call was made and failed: no address, no connection, no answer in time. */
export class OutgoingFailure extends Error {
  override name = 'OutgoingFailure';
  readonly reason: Exclude<OutgoingReason, 'url_refused' | 'address_refused'>;
  constructor(message: string, reason: Exclude<OutgoingReason, 'url_refused' | 'address_refused'>) {
    super(message);
    this.reason = reason;
  }
}

export interface OutgoingOptions {
  /** Networks (addresses or CIDR blocks) the operator allows although they are not public. */
  allowedNetworks?: readonly string[];
  /** The whole call's deadline. */
  timeoutMs?: number;
  /** How much of an answer's body is read before the connection is closed. */
  maxResponseBytes?: number;
  /** Resolves a host name to its addresses (tests: a name that answers a private address). */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

export const OUTGOING_TIMEOUT_MS = 5000;
export const OUTGOING_MAX_RESPONSE_BYTES = 16 * 1024;

/** Networks no call leaves for unless allowed (RFC 6890's special-purpose registries, in short). */
const NOT_PUBLIC: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // private
  ['100.64.0.0', 10, 'ipv4'], // shared address space (CGNAT)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'], // private
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 96, 'ipv6'], // unspecified, loopback, IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT)
  ['64:ff9b:1::', 48, 'ipv6'], // NAT64 for local use
  ['100::', 64, 'ipv6'], // discard
  ['2001::', 32, 'ipv6'], // Teredo (carries an IPv4 address)
  ['2001:10::', 28, 'ipv6'], // ORCHID
  ['2001:20::', 28, 'ipv6'], // ORCHIDv2
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4 (carries an IPv4 address)
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [network, prefix, family] of NOT_PUBLIC) notPublic.addSubnet(network, prefix, family);

/** An IPv6 address in its one canonical spelling (WHATWG URL's: lower case, zeros compressed, no dotted tail). */
function canonicalIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
}

/** An IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), or null. */
function embeddedIpv4(address: string): string | null {
  const lower = canonicalIpv6(address);
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] ?? null;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** May the server call this address? Public ones always; others when the operator allows their network. */
export function addressAllowed(address: string, allowed: BlockList): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (allowed.check(address, family)) return true;
  const inner = family === 'ipv6' ? embeddedIpv4(address) : null;
  if (inner !== null) return allowed.check(inner, 'ipv4') || !notPublic.check(inner, 'ipv4');
  return !notPublic.check(address, family);
}

/** Is `host` (a URL's hostname) a literal address the server may not call? Answers null for a name. */
export function literalAddressRefused(host: string, allowed: BlockList): boolean | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return !addressAllowed(bare, allowed);
  // "localhost" and its subdomains are loopback whatever a resolver says (RFC 6761 §6.3), with or without the root's dot.
  const name = bare.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') ? !addressAllowed('127.0.0.1', allowed) : null;
}

const systemResolve = (host: string) => lookup(host, { all: true, verbatim: true });

type Address = { address: string; family: number };

/** `promise`, or an OutgoingFailure('timeout') once `signal` aborts. */
function beforeDeadline<T>(promise: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const expired = () => reject(new OutgoingFailure(`${what}: no answer before the deadline`, 'timeout'));
    if (signal.aborted) return expired();
    signal.addEventListener('abort', expired, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', expired));
  });
}

/** The coarse reason of a failed connection (the error's code and text stay in its message). */
function failureReason(error: { code?: string; name?: string; message?: string }): OutgoingFailure['reason'] {
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || error.code === 'ETIMEDOUT') return 'timeout';
  const code = error.code ?? '';
  if (/^ERR_(TLS|SSL)|CERT|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/.test(code) || (code === 'EPROTO' && /SSL|TLS/.test(error.message ?? '')))
    return 'tls_failed';
  return 'connect_failed';
}

export function createOutgoingClient(options: OutgoingOptions = {}): OutgoingClient {
  const allowed = networksOf(options.allowedNetworks ?? []);
  const timeoutMs = options.timeoutMs ?? OUTGOING_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? OUTGOING_MAX_RESPONSE_BYTES;
  const resolve = options.resolve ?? systemResolve;

  /** The addresses the call may connect to: every address of the name must be allowed. */
  async function addressesOf(url: URL, deadline: AbortSignal): Promise<Address[]> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    if (literal === 0 && literalAddressRefused(host, allowed))
      throw new OutgoingRefusal(`${host} is a loopback name; the server does not call it`, 'address_refused');
    let addresses: Address[];
    if (literal !== 0) addresses = [{ address: host, family: literal }];
    else {
      try {
        addresses = await beforeDeadline(resolve(host), deadline, `resolving ${host}`);
      } catch (error) {
        if (error instanceof OutgoingFailure) throw error;
        throw new OutgoingFailure(`${host} could not be resolved (${(error as { code?: string }).code ?? 'error'})`, 'dns_failed');
      }
    }
    // A name answering one private address among public ones is refused whole: which one a
    // connection would take is not the caller's to choose.
    const refused = addresses.find((a) => !addressAllowed(a.address, allowed));
    if (refused)
      throw new OutgoingRefusal(
        `${host} is a loopback, private or link-local address (${refused.address}); the server does not call it`,
        'address_refused',
      );
    if (addresses.length === 0) throw new OutgoingFailure(`${host} has no address`, 'dns_failed');
    return addresses;
  }

  /** The URL the server may call, or an OutgoingRefusal('url_refused'). */
  function callable(target: string): URL {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new OutgoingRefusal('not a URL', 'url_refused');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutgoingRefusal(`${url.protocol} is not http or https`, 'url_refused');
    if (url.username || url.password) throw new OutgoingRefusal('a URL with credentials is not called', 'url_refused');
    return url;
  }

  return {
    async refusal(target) {
      try {
        await addressesOf(callable(target), AbortSignal.timeout(timeoutMs));
        return null;
      } catch (error) {
        if (error instanceof OutgoingRefusal) return error.reason;
        // A name that does not resolve now may later: it is refused at the call if it is not public then.
        if (error instanceof OutgoingFailure) return null;
        throw error;
      }
    },

    async post(target, body, contentType, headers = {}) {
      const started = performance.now();
      // One deadline for the whole call: resolving the name, connecting, the answer's status.
      const deadline = AbortSignal.timeout(timeoutMs);
      const url = callable(target);
      const addresses = await addressesOf(url, deadline);
      // The connection goes to the addresses checked above (all of them, so a host with IPv4 and
      // IPv6 is reached by either), whatever the name resolves to now.
      const pinned: LookupFunction = (_host, lookupOptions, callback) => {
        if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: Address[]) => void)(null, addresses);
        else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
      };
      const requestOptions: RequestOptions = {
        method: 'POST',
        lookup: pinned,
        // A connection of its own, closed after the call: nothing pooled outlives the check above.
        agent: false,
        headers: {
          ...headers,
          'content-type': contentType,
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Latchkey',
          accept: '*/*',
        },
        signal: deadline,
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      let answeredAt = 0;
      const status = await new Promise<number>((resolveStatus, reject) => {
        const call = send(url, requestOptions, (response: IncomingMessage) => {
          // The status is the answer; the body is read to a bound (so a short one ends the
          // exchange cleanly) and dropped, a longer one cut off.
          answeredAt = performance.now();
          resolveStatus(response.statusCode ?? 0);
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > maxResponseBytes) response.destroy();
          });
          response.on('error', () => undefined);
        });
        call.on('error', (error: Error & { code?: string }) => {
          reject(new OutgoingFailure(`${url.host}: ${error.code ?? error.name} ${error.message}`, failureReason(error)));
        });
        call.end(body);
      });
      return { status, ms: Math.round(answeredAt - started) };
    },
  };
}
