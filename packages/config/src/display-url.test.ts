import { describe, expect, it } from 'vitest';
import { displayClusterNodes, displayUrl } from './display-url.ts';

describe('displayUrl', () => {
  it('hides the password of a URL, and keeps the rest', () => {
    const shown = displayUrl('redis://default:s3cret-pass@redis.internal:6380/2', 'REDIS_URL');
    expect(shown).toBe('redis://default:***@redis.internal:6380/2');
    expect(shown).not.toContain('s3cret');
  });

  it('leaves a URL without a password as it is', () => {
    expect(displayUrl('redis://127.0.0.1:6379', 'REDIS_URL')).toBe('redis://127.0.0.1:6379');
  });

  it('shows only the fallback for what does not parse', () => {
    expect(displayUrl('not a url with s3cret', 'REDIS_URL')).toBe('REDIS_URL');
  });
});

describe('displayClusterNodes', () => {
  it('names the nodes as REDIS_CLUSTER_NODES does, an IPv6 host in brackets', () => {
    expect(
      displayClusterNodes([
        { host: 'redis-1', port: 7000 },
        { host: '::1', port: 7001 },
      ]),
    ).toBe('redis-1:7000,[::1]:7001');
  });
});
