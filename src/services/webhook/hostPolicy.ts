// Gitea's ALLOWED_HOST_LIST (modules/hostmatcher): which addresses a webhook may connect to.
import ipaddr from 'ipaddr.js';
import { compileGlob } from '../glob.ts';

/** A parsed allow list: built-in classes, CIDR ranges and host-name globs. */
export interface HostPolicy {
  /** The entries as configured, for error messages. */
  text: string;
  /** The host name (as in the URL) is allowed whatever it resolves to. */
  allowsHost(host: string): boolean;
  /** The address a connection is about to be made to is allowed. */
  allowsIp(ip: string): boolean;
  /** Some entry is judged on an address (a built-in class or a CIDR range), so a host name alone cannot fail it. */
  judgesAddresses: boolean;
}

const NOT_GLOBAL = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback']);

/** Go's net.IP classes, as Gitea's hostmatcher uses them. */
function classify(ip: string): { loopback: boolean; private: boolean; external: boolean } | null {
  if (!ipaddr.isValid(ip)) return null;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  const loopback = range === 'loopback';
  const isPrivate = range === 'private' || range === 'uniqueLocal';
  return { loopback, private: isPrivate, external: !NOT_GLOBAL.has(range) && !isPrivate };
}

/**
 * Parses Gitea's ALLOWED_HOST_LIST entries: `loopback`, `private` (RFC 1918 and IPv6 unique local), `external`
 * (global unicast that is not private), `*` (everything), CIDR ranges, and host-name globs (`*.example.com`).
 */
export function parseHostPolicy(entries: readonly string[]): HostPolicy {
  const builtins = new Set<string>();
  const cidrs: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  const globs: ((s: string) => boolean)[] = [];
  for (const raw of entries) {
    const e = raw.trim().toLowerCase();
    if (!e) continue;
    if (['loopback', 'private', 'external', '*'].includes(e)) builtins.add(e);
    else if (e.includes('/') && ipaddr.isValidCIDR(e)) cidrs.push(ipaddr.parseCIDR(e));
    else {
      try {
        globs.push(compileGlob(e, { nocase: true }));
      } catch {
        // Gitea skips an entry that is not a valid pattern.
      }
    }
  }
  const inCidr = (ip: string): boolean => {
    const addr = ipaddr.process(ip);
    return cidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
  };
  return {
    text: entries.join(','),
    judgesAddresses: builtins.size > 0 || cidrs.length > 0,
    allowsHost: (host) => builtins.has('*') || globs.some((g) => g(host.toLowerCase())),
    allowsIp: (ip) => {
      if (builtins.has('*')) return true;
      const c = classify(ip);
      if (!c) return false;
      if ((builtins.has('loopback') && c.loopback) || (builtins.has('private') && c.private) || (builtins.has('external') && c.external)) {
        return true;
      }
      return inCidr(ip) || globs.some((g) => g(ipaddr.process(ip).toString()));
    },
  };
}
