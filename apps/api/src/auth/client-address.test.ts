import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddressOf, clientKey, UNKNOWN_CLIENT } from './client-address.ts';

describe('client address', () => {
  it('keeps IPv4 as it is and takes IPv4 out of a mapped IPv6 address', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::FFFF:198.51.100.7')).toBe('198.51.100.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const key = '2001:db8:0:1::/64';
    expect(clientKey('2001:db8:0:1::1')).toBe(key);
    expect(clientKey('2001:0DB8:0000:0001:ffff:eeee:dddd:cccc')).toBe(key);
    expect(clientKey('2001:db8:0:1:a::b%eth0')).toBe(key);
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8:0:2::1')).not.toBe(key);
  });

  function addressApp(trustProxy: boolean) {
    const clientAddress = clientAddressOf({ trustProxy });
    return new Hono().get('/', (c) => c.text(clientAddress(c)));
  }
  const socketBindings = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

  it("takes the socket's peer, and ignores X-Forwarded-For unless a proxy is trusted", async () => {
    const res = await addressApp(false).request('/', { headers: { 'x-forwarded-for': '203.0.113.9' } }, socketBindings('::ffff:198.51.100.7'));
    expect(await res.text()).toBe('198.51.100.7');
    expect(await (await addressApp(false).request('/')).text()).toBe(UNKNOWN_CLIENT);
  });

  it('behind a trusted proxy takes the address the proxy appended, not the ones the client sent', async () => {
    const app = addressApp(true);
    const via = async (forwarded: string | undefined) =>
      (await app.request('/', { headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }, socketBindings('10.0.0.2'))).text();
    expect(await via('203.0.113.9')).toBe('203.0.113.9');
    expect(await via('198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    expect(await via('203.0.113.9,2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    // With the client's port, as some proxies write it.
    expect(await via('203.0.113.9:5678')).toBe('203.0.113.9');
    expect(await via('[2001:db8:0:1::5]:5678')).toBe('2001:db8:0:1::/64');
    expect(await via('[2001:db8:0:1::5]')).toBe('2001:db8:0:1::/64');
    // Nothing usable from the proxy: the proxy's own connection is the client.
    expect(await via(undefined)).toBe('10.0.0.2');
    expect(await via('203.0.113.9, not-an-address')).toBe('10.0.0.2');
  });
});
