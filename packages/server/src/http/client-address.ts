import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  if (tail === undefined) return parse(head);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** RFC 5952 text of eight groups: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
function formatIpv6(groups: number[]): string {
  let best = { start: -1, length: 1 };
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (groups[start + length] === 0) length++;
    if (length > best.length) best = { start, length };
    start += length;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/**
 * The client, as rate limits count it (issue 7, defect 5). One IPv4 address is one client; an
 * IPv6 caller usually holds a whole /64 (2^64 addresses), so its /64 prefix is the client, or a
 * limit per address would be no limit at all. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, a
 * dual-stack socket's view of an IPv4 caller) is that IPv4 address. Anything else (not an address)
 * is kept as it is.
 */
export function rateLimitKeyOf(ip: string): string {
  if (isIPv4(ip)) return ip;
  // A zone (fe80::1%eth0) names the local interface, not the caller.
  const address = ip.split('%')[0] as string;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}
