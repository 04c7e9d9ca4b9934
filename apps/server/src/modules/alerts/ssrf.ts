import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may reach (docs/architecture.md, "Alerts"): none on private,
 * loopback, link-local, shared (CGNAT), unspecified, multicast or reserved ranges, unless
 * ALERT_WEBHOOK_ALLOW names the host, the address or a CIDR range holding it. The host is
 * resolved when the call is made and the connection goes to the address that was checked
 * (a name that resolves elsewhere a moment later gains nothing).
 */
const REFUSED = new BlockList();
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
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv6');
}

/** The operator's exceptions, parsed once. */
export type WebhookAllow = { hosts: ReadonlySet<string>; addresses: BlockList };

/** Parses ALERT_WEBHOOK_ALLOW's entries: a CIDR range, an address, or else a host name. */
export function parseWebhookAllow(entries: readonly string[]): WebhookAllow {
  const hosts = new Set<string>();
  const addresses = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const [net, bits] = entry.split('/');
    const family = isIP(net ?? '');
    if (family !== 0 && net) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) addresses.addAddress(net, type);
      else addresses.addSubnet(net, Number(bits), type);
    } else {
      hosts.add(entry);
    }
  }
  return { hosts, addresses };
}

/** True when the entry list is well formed (config.ts refuses anything else at start). */
export function isWebhookAllowEntry(entry: string): boolean {
  const [net, bits, extra] = entry.trim().split('/');
  if (extra !== undefined || !net) return false;
  const family = isIP(net);
  if (family === 0) return bits === undefined && /^[a-z0-9.-]{1,253}$/i.test(net);
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** An address of an IPv4-mapped IPv6 form (::ffff:10.0.0.1) as the IPv4 address it is. */
function unmapped(address: string): { address: string; family: 4 | 6 } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 4 };
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}

/** A webhook URL the server will not call; the message says why. */
export class WebhookRefusedError extends Error {}

/** Is this address one webhooks may reach (public, or allowed by the operator)? */
export function isAddressAllowed(address: string, host: string, allow: WebhookAllow): boolean {
  const a = unmapped(address);
  const type = a.family === 4 ? 'ipv4' : 'ipv6';
  if (!REFUSED.check(a.address, type)) return true;
  return allow.hosts.has(host.toLowerCase()) || allow.addresses.check(a.address, type);
}

export type ResolvedTarget = { url: URL; address: string; family: 4 | 6 };

/**
 * Resolves a webhook URL's host now and checks every address it has; answers the address
 * to connect to. Throws WebhookRefusedError for a refused address or a name that does not
 * resolve.
 */
export async function resolveWebhookTarget(
  text: string,
  allow: WebhookAllow,
  resolve: (host: string) => Promise<{ address: string; family: number }[]> = (host) =>
    lookup(host, { all: true, verbatim: true }),
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookRefusedError('webhook_url: not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebhookRefusedError('webhook_url: must be an http:// or https:// URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new WebhookRefusedError('webhook_url: must not carry a user name or password');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new WebhookRefusedError(`webhook_url: ${host} does not resolve`);
    }
  }
  if (addresses.length === 0)
    throw new WebhookRefusedError(`webhook_url: ${host} does not resolve`);
  for (const { address } of addresses) {
    if (!isAddressAllowed(address, host, allow)) {
      throw new WebhookRefusedError(
        `webhook_url: ${host} is a private, loopback or link-local address; the server does not call it (ALERT_WEBHOOK_ALLOW)`,
      );
    }
  }
  const first = unmapped(addresses[0]!.address);
  return { url, address: first.address, family: first.family };
}
