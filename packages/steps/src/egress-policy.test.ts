import { describe, expect, it } from 'vitest';
import { EgressRefusedError } from '@ces/language';
import { createEgressPolicy, refusedAddressReason } from './egress-policy.ts';

describe('refusedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.10.10', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['224.0.0.1', 'multicast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private (unique local)'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'cloud metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:a00:1', 'private'],
    ['64:ff9b:1::8.8.8.8', 'local-use NAT64'],
    ['64:ff9b:1:ab00::1', 'local-use NAT64'],
    ['2002:c0a8:0101::1', 'private'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.10', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['192.88.99.1', '6to4 relay'],
    ['2001:0:a00:1::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard-only'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '172.32.0.1', '192.169.0.1', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8'])(
    'accepts %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeUndefined();
    },
  );
});

describe('createEgressPolicy', () => {
  const strict = createEgressPolicy({ allowPrivateNetworks: false });

  it('refuses literal non-public hosts, brackets included', () => {
    expect(() => strict.checkHost('127.0.0.1')).toThrow(EgressRefusedError);
    expect(() => strict.checkHost('[::1]')).toThrow(/not allowed: loopback address/);
    expect(() => strict.checkHost('example.com')).not.toThrow();
    expect(() => createEgressPolicy({ allowPrivateNetworks: true }).checkHost('127.0.0.1')).not.toThrow();
  });

  it('refuses a name that resolves to a non-public address', async () => {
    const error = await new Promise((resolve) => strict.lookup('localhost', {}, (caught) => resolve(caught)));
    expect(error).toBeInstanceOf(EgressRefusedError);
    // What the name resolves to inside the network stays out of the message, which tenants read.
    expect((error as Error).message).toBe('requests to localhost are not allowed: it resolves to a non-public address');
  });

  it('lets listed hosts through, exactly or by subdomain wildcard', async () => {
    const policy = createEgressPolicy({ allowPrivateNetworks: false, allowedHosts: ['LOCALHOST', '*.internal.example'] });
    const address = await new Promise((resolve) => policy.lookup('localhost', {}, (error, resolved) => resolve(error ?? resolved)));
    expect(address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(() => policy.checkHost('127.0.0.1')).toThrow(EgressRefusedError);
  });
});
