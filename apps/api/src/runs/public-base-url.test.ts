import { describe, expect, it } from 'vitest';
import { publicBaseUrlOf } from './public-base-url.ts';

describe('a run’s public base URL', () => {
  it('is the setting when there is one, whatever the request', () => {
    expect(publicBaseUrlOf('https://choreos.example.com', 'acme.localhost:8443')).toBe('https://choreos.example.com');
  });

  it('is https:// and the Host the client used otherwise, an account host or a port included', () => {
    expect(publicBaseUrlOf(undefined, 'acme.choreos.example.com')).toBe('https://acme.choreos.example.com');
    expect(publicBaseUrlOf(undefined, 'LocalHost:8443')).toBe('https://localhost:8443');
    expect(publicBaseUrlOf(undefined, '127.0.0.1:9000')).toBe('https://127.0.0.1:9000');
    expect(publicBaseUrlOf(undefined, '[::1]:8443')).toBe('https://[::1]:8443');
  });

  it('is none for a Host that is not a valid host[:port]', () => {
    for (const host of [undefined, '', 'evil.example/path', 'user@host', 'host:0', 'host:70000', 'a..b', '-a.example', 'host name', 'host:8443:1']) {
      expect(publicBaseUrlOf(undefined, host), String(host)).toBeUndefined();
    }
  });
});
