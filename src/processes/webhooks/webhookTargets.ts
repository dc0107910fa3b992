// Where a webhook may be delivered (SSRF): https only, and every address the host resolves to outside loopback,
// link-local, private, CGNAT, unspecified, multicast and reserved ranges (IPv4-mapped IPv6 judged as its IPv4), unless
// the platform allows private targets. Checked at registration and again at delivery, on the address then connected to.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated): ::a.b.c.d
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['2001::', 32], // Teredo: tunnels to an IPv4 address
  ['64:ff9b::', 96], // NAT64 of IPv4 (may reach private ranges)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d, also in hex) as its IPv4, else null. */
function mappedIPv4(address: string): string | null {
  const m = /^::ffff:(?:0:)?(.+)$/i.exec(address);
  if (!m) return null;
  const rest = m[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True when the address is in a range a webhook may never reach (without the platform allowance). */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = mappedIPv4(address);
  return v4 !== null ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(address, 'ipv6');
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

export interface Target {
  url: URL;
  /** The address to connect to (checked), and its family. */
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/** Resolves and checks a target URL; throws TargetRefused with the reason. */
export async function checkTarget(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('is not a URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new TargetRefused('must use https');
  if (url.username || url.password) throw new TargetRefused('must not carry credentials');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  } catch {
    throw new TargetRefused(`its host ${host} does not resolve`);
  }
  if (addresses.length === 0) throw new TargetRefused(`its host ${host} does not resolve`);
  const blocked = addresses.find((a) => isBlockedAddress(a.address));
  if (blocked && !allowPrivate) throw new TargetRefused(`its host resolves to ${blocked.address}, a private or reserved address`);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
