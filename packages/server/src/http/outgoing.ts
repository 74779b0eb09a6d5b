import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

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
  /** POSTs `body` (`contentType`) to `url` and answers its status, or throws an OutgoingRefusal / OutgoingFailure. */
  post(url: string, body: string, contentType: string): Promise<OutgoingAnswer>;
}

export interface OutgoingAnswer {
  status: number;
  /** Milliseconds from the call to the answer's end. */
  ms: number;
}

/** The address is not one the server may call (nothing was sent). */
export class OutgoingRefusal extends Error {
  override name = 'OutgoingRefusal';
}

/** The call was made and failed: no connection, no answer in time, a broken answer. */
export class OutgoingFailure extends Error {
  override name = 'OutgoingFailure';
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
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const notPublic = new BlockList();
for (const [network, prefix, family] of NOT_PUBLIC) notPublic.addSubnet(network, prefix, family);

/** An IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] ?? null;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** A BlockList of the operator's allowed networks ("10.0.0.0/8", "::1", …). */
export function networksOf(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
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
  if (isIP(bare) === 0)
    return bare.toLowerCase() === 'localhost' || bare.toLowerCase().endsWith('.localhost') ? !addressAllowed('127.0.0.1', allowed) : null;
  return !addressAllowed(bare, allowed);
}

const systemResolve = (host: string) => lookup(host, { all: true, verbatim: true });

export function createOutgoingClient(options: OutgoingOptions = {}): OutgoingClient {
  const allowed = networksOf(options.allowedNetworks ?? []);
  const timeoutMs = options.timeoutMs ?? OUTGOING_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? OUTGOING_MAX_RESPONSE_BYTES;
  const resolve = options.resolve ?? systemResolve;

  /** The one address the call connects to: every address of the name must be allowed. */
  async function addressOf(url: URL): Promise<{ address: string; family: number }> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host);
    let addresses: Array<{ address: string; family: number }>;
    if (literal !== 0) addresses = [{ address: host, family: literal }];
    else {
      try {
        addresses = await resolve(host);
      } catch (error) {
        throw new OutgoingFailure(`${host} could not be resolved (${(error as { code?: string }).code ?? 'error'})`);
      }
    }
    // A name answering one private address among public ones is refused whole: which one a
    // connection would take is not the caller's to choose.
    const refused = addresses.find((a) => !addressAllowed(a.address, allowed));
    if (refused) throw new OutgoingRefusal(`${host} is a loopback, private or link-local address (${refused.address}); the server does not call it`);
    const first = addresses[0];
    if (!first) throw new OutgoingFailure(`${host} has no address`);
    return first;
  }

  return {
    async post(target, body, contentType) {
      const started = performance.now();
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        throw new OutgoingRefusal('not a URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutgoingRefusal(`${url.protocol} is not http or https`);
      if (url.username || url.password) throw new OutgoingRefusal('a URL with credentials is not called');
      const { address, family } = await addressOf(url);
      // The connection goes to the address checked above, whatever the name resolves to now.
      const pinned: LookupFunction = (_host, lookupOptions, callback) => {
        if ((lookupOptions as { all?: boolean }).all)
          (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
        else callback(null, address, family);
      };
      const requestOptions: RequestOptions = {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': contentType,
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Latchkey',
          accept: '*/*',
        },
        signal: AbortSignal.timeout(timeoutMs),
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const status = await new Promise<number>((resolveStatus, reject) => {
        const fail = (error: unknown) => {
          const reason =
            (error as { name?: string }).name === 'AbortError' ? `no answer within ${timeoutMs} ms` : ((error as Error).message ?? 'failed');
          reject(new OutgoingFailure(reason));
        };
        const call = send(url, requestOptions, (response: IncomingMessage) => {
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            // Enough is known from the status: a long body is cut off, not read.
            if (read > maxResponseBytes) response.destroy();
          });
          response.on('error', () => resolveStatus(response.statusCode ?? 0));
          response.on('close', () => resolveStatus(response.statusCode ?? 0));
        });
        call.on('error', fail);
        call.end(body);
      });
      return { status, ms: Math.round(performance.now() - started) };
    },
  };
}
