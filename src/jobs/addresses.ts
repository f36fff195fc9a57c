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

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:127.0.0.1` or `::ffff:7f00:1`), else null. */
function mappedIpv4(address: string): string | null {
  const match = /^::ffff:(.+)$/i.exec(address);
  if (!match) return null;
  const rest = match[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an IP address is one webhooks may not reach. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = isIP(bare) === 6 ? mappedIpv4(bare) : bare;
  if (v4 && isIP(v4) === 4) return BLOCKED.check(v4, 'ipv4');
  return isIP(bare) === 6 ? BLOCKED.check(bare, 'ipv6') : false;
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
