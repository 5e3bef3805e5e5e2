import { describe, expect, it } from 'vitest';
import { callbackCaptureUrl, runCallbackUrl, withoutCallbackToken } from './callback-paths.ts';

describe('callback paths', () => {
  it('make the two kinds of call back URL under a public address, each on its own path', () => {
    expect(callbackCaptureUrl('https://acme.example:8443', 'tok')).toBe('https://acme.example:8443/callbacks/tok');
    expect(runCallbackUrl('https://acme.example:8443', 'tok')).toBe('https://acme.example:8443/run-callbacks/tok');
  });

  it('leave the token of either kind out of a path written to logs, and other paths alone', () => {
    expect(withoutCallbackToken('/callbacks/secret-token')).toBe('/callbacks/…');
    expect(withoutCallbackToken('/run-callbacks/secret-token')).toBe('/run-callbacks/…');
    expect(withoutCallbackToken('/callbacksx/abc')).toBe('/callbacksx/abc');
    expect(withoutCallbackToken('/healthz')).toBe('/healthz');
  });
});
