import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * Where webhooks may not send: loopback, private, link-local, shared (CGNAT), multicast and reserved
 * ranges. A webhook's creator is not trusted with the service's network position (SSRF): the check runs on
 * the addresses a name resolves to, so a public name pointing at 127.0.0.1 is caught too.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (isIP(dotted[1]!) !== 4) return null;
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string) => (half === '' ? [] : half.split(':').map((group) => parseInt(group, 16)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some((group) => Number.isNaN(group) || group < 0 || group > 0xffff) ? null : groups;
}

const dottedOf = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address carries, in every form that reaches it: IPv4-mapped (`::ffff:a.b.c.d`),
 * IPv4-compatible (`::a.b.c.d`, deprecated but still routed by some stacks), IPv4-translated
 * (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`, and the local-use `64:ff9b:1::/48`) and 6to4
 * (`2002:AABB:CCDD::/48`, the IPv4 address in groups 2-3) and Teredo (`2001:0::/32`, the client's address
 * inverted in the last 32 bits). Null for any other address.
 */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; :: and ::1 themselves are blocked as IPv6)
  if (zeros(0, 5) && (g[5] === 0xffff || (g[5] === 0 && (g[6] !== 0 || g[7]! > 1)))) return dottedOf(g[6]!, g[7]!);
  // ::ffff:0:a.b.c.d (translated)
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dottedOf(g[6]!, g[7]!);
  // 64:ff9b::/96 (well-known NAT64 prefix) and 64:ff9b:1::/48 (local-use NAT64)
  if (g[0] === 0x64 && g[1] === 0xff9b && (zeros(2, 6) || g[2] === 1)) return dottedOf(g[6]!, g[7]!);
  // 2002::/16: 6to4, the router's IPv4 address in the next 32 bits
  if (g[0] === 0x2002) return dottedOf(g[1]!, g[2]!);
  // 2001:0::/32: Teredo, the client's IPv4 address in the last 32 bits, inverted
  if (g[0] === 0x2001 && g[1] === 0) return dottedOf(g[6]! ^ 0xffff, g[7]! ^ 0xffff);
  return null;
}

/** Whether an IP address is one webhooks may not reach. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return BLOCKED.check(bare, 'ipv4');
  if (isIP(bare) !== 6) return false;
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return BLOCKED.check(v4, 'ipv4');
  return BLOCKED.check(bare, 'ipv6');
}

/** Raised when a webhook target is (or resolves to) an address webhooks may not reach. */
export class PrivateAddressError extends Error {
  readonly code = 'BLOCKED_PRIVATE_ADDRESS';
}

/**
 * Refuses an http(s) URL whose host is, or resolves to, a private address. A host that does not resolve
 * passes: Ghost accepts any well-formed URL, and delivery checks again (and fails) when it is sent.
 */
export async function assertPublicTarget(url: string): Promise<void> {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
    host = parsed.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return;
  }
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw new PrivateAddressError(`${host} is a private address`);
    return;
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return;
  }
  const blocked = addresses.find(({ address }) => isPrivateAddress(address));
  if (blocked) throw new PrivateAddressError(`${host} resolves to the private address ${blocked.address}`);
}
