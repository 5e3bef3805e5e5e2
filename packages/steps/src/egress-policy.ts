import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { EgressRefusedError } from '@ces/language';

export interface EgressOptions {
  /** Permit loopback, private, link-local and other non-public destinations (local development, tests). */
  readonly allowPrivateNetworks: boolean;
  /**
   * Host names (exact, or "*.example.com" for any subdomain) that may resolve to non-public
   * addresses anyway, for internal services a deployment trusts. Matched case-insensitively.
   */
  readonly allowedHosts?: readonly string[];
}

/** Why an address is refused, or undefined when it is a public address. */
export function refusedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return ipv4Reason(address);
  if (family === 6) return ipv6Reason(address);
  return 'not an IP address';
}

function ipv4Reason(address: string): string | undefined {
  const octets = address.split('.').map(Number);
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  if (a === 169 && b === 254 && c === 169 && d === 254) return 'cloud metadata';
  if (a === 0) return 'unspecified';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'shared (carrier-grade NAT)';
  if (a === 192 && b === 0 && c === 0) return 'IETF protocol assignments';
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'documentation';
  if (a === 192 && b === 88 && c === 99) return '6to4 relay';
  if (a === 198 && (b === 18 || b === 19)) return 'benchmarking';
  if (a >= 224) return a < 240 ? 'multicast' : 'reserved';
  return undefined;
}

/** Eight 16-bit groups; isIP has already accepted the text. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv6Reason(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embeddedV4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) return 'cloud metadata';
  if (groups.every((group) => group === 0)) return 'unspecified';
  if (groups.slice(0, 7).every((group) => group === 0) && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d): judge the IPv4 inside.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) {
    return ipv4Reason(embeddedV4(g6, g7)) ?? undefined;
  }
  // IPv4-translated (::ffff:0:a.b.c.d, RFC 2765) carries an IPv4 address like the mapped form.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return ipv4Reason(embeddedV4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Reason(embeddedV4(g6, g7));
  // Local-use NAT64 (RFC 8215): a site's own translators, which may reach anything behind them.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'local-use NAT64';
  if (g0 === 0x2002) return ipv4Reason(embeddedV4(g1, g2));
  // Teredo hides its IPv4 server and client (the latter obfuscated): nothing inside can be judged.
  if (g0 === 0x2001 && g1 === 0) return 'Teredo';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'documentation';
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return 'discard-only';
  if ((g0 & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

function hostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return allowedHosts.some((pattern) => {
    const lower = pattern.toLowerCase();
    return lower.startsWith('*.') ? host.endsWith(lower.slice(1)) && host.length > lower.length - 1 : host === lower;
  });
}

export interface EgressPolicy {
  /** Throws EgressRefusedError for a literal IP host that is refused (Node skips lookup for those). */
  checkHost(hostname: string): void;
  /**
   * A `lookup` for node:http(s) requests: resolves every address, refuses the request when any is
   * not public, and hands exactly the checked addresses to the socket, so a second DNS answer
   * (DNS rebinding) never reaches the connection.
   */
  readonly lookup: LookupFunction;
}

export function createEgressPolicy(options: EgressOptions): EgressPolicy {
  const allowedHosts = options.allowedHosts ?? [];
  const exempt = (hostname: string) => options.allowPrivateNetworks || hostAllowed(hostname, allowedHosts);
  const refusal = (hostname: string, address: string) => {
    const reason = refusedAddressReason(address);
    if (reason === undefined) return undefined;
    // The message reaches the tenant (the execution's lasterror): a literal address is its own
    // input, but what a name resolves to inside our network is not its to learn.
    return new EgressRefusedError(
      hostname === address
        ? `requests to ${address} are not allowed: ${reason} address`
        : `requests to ${hostname} are not allowed: it resolves to a non-public address`,
    );
  };
  return {
    checkHost(hostname) {
      const bare = hostname.replace(/^\[|\]$/g, '');
      if (isIP(bare) === 0 || exempt(bare)) return;
      const error = refusal(bare, bare);
      if (error !== undefined) throw error;
    },
    lookup(hostname, lookupOptions, callback) {
      const family =
        typeof lookupOptions.family === 'number' ? lookupOptions.family : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family === 'IPv4' ? 4 : 0;
      dnsLookup(hostname, { all: true, family, hints: lookupOptions.hints ?? 0 }, (error, addresses: LookupAddress[]) => {
        if (error !== null) return callback(error, '', 0);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (!exempt(hostname)) {
          for (const { address } of addresses) {
            const refused = refusal(hostname, address);
            if (refused !== undefined) return callback(refused as NodeJS.ErrnoException, '', 0);
          }
        }
        if (lookupOptions.all === true) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        const [first] = addresses;
        return callback(null, first?.address ?? '', first?.family ?? 4);
      });
    },
  };
}
