import { isIP } from 'node:net';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

/** Where requests without a socket come from (`app.request()` in process). */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * The client a request came from, for limits per client: the socket's peer or, behind a trusted
 * proxy, the address that proxy appended to `X-Forwarded-For` (the last entry: the ones before it
 * are whatever the client chose to send). An IPv6 client is its /64, which one host usually holds
 * whole, so that walking through its own addresses does not make it a new client.
 */
export function clientAddressOf(options: { trustProxy: boolean }): (c: Context) => string {
  return (c) => {
    if (options.trustProxy) {
      const forwarded = c.req.header('x-forwarded-for');
      const last = forwarded && withoutPort(forwarded.slice(forwarded.lastIndexOf(',') + 1).trim());
      if (last && isIP(last)) return clientKey(last);
    }
    const address = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
    return address ? clientKey(address) : UNKNOWN_CLIENT;
  };
}

/** Some proxies write the client's port too: `1.2.3.4:5678`, `[2001:db8::1]:5678`, `[2001:db8::1]`. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1];
  if (bracketed !== undefined) return bracketed;
  return /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(entry)?.[1] ?? entry;
}

/** `1.2.3.4` as it is; `::ffff:1.2.3.4` as `1.2.3.4`; any other IPv6 address as its /64. */
export function clientKey(address: string): string {
  if (!address.includes(':')) return address;
  const unzoned = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(unzoned)?.[1];
  if (mapped !== undefined) return mapped;
  const [head = '', tail] = unzoned.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...new Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
