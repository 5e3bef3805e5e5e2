import { ConfigError } from '@ces/config';
import { describe, expect, it } from 'vitest';
import { loadApiConfig } from './config.ts';

describe('API configuration', () => {
  it('has working defaults', () => {
    const config = loadApiConfig({});
    expect(config).toMatchObject({
      PORT: 8443,
      SYNC_WAIT_SECONDS: 30,
      RETENTION_SECONDS: 3600,
      TRUST_PROXY: false,
      BODY_LIMIT_BYTES: 1024 * 1024,
      SERVICE_HOST: 'localhost',
      MAX_AUTH_FAILURES_PER_MINUTE: 20,
      MAX_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: 300,
      MAX_STORED_BYTES_PER_ACCOUNT: 1024 * 1024 * 1024,
    });
  });

  it('stops on a retention under five minutes, naming the variable', () => {
    expect(() => loadApiConfig({ RETENTION_SECONDS: '60' })).toThrow(ConfigError);
    expect(() => loadApiConfig({ RETENTION_SECONDS: '60' })).toThrow(/RETENTION_SECONDS/);
  });

  it('wants both TLS files or neither', () => {
    expect(() => loadApiConfig({ TLS_CERT_FILE: '/tls/cert.pem' })).toThrow(/TLS_KEY_FILE/);
    expect(loadApiConfig({ TLS_CERT_FILE: '/c.pem', TLS_KEY_FILE: '/k.pem' }).TLS_KEY_FILE).toBe('/k.pem');
  });

  it('refuses a port out of range and a non-numeric wait', () => {
    expect(() => loadApiConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadApiConfig({ SYNC_WAIT_SECONDS: 'soon' })).toThrow(/SYNC_WAIT_SECONDS/);
    expect(() => loadApiConfig({ MAX_AUTH_FAILURES_PER_MINUTE: '-1' })).toThrow(/MAX_AUTH_FAILURES_PER_MINUTE/);
    expect(loadApiConfig({ MAX_AUTH_FAILURES_PER_MINUTE: '0' }).MAX_AUTH_FAILURES_PER_MINUTE).toBe(0);
    expect(() => loadApiConfig({ MAX_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: 'many' })).toThrow(/MAX_AUTH_FAILURES_PER_ADDRESS_PER_MINUTE/);
    expect(() => loadApiConfig({ MAX_STORED_BYTES_PER_ACCOUNT: '-1' })).toThrow(/MAX_STORED_BYTES_PER_ACCOUNT/);
    expect(() => loadApiConfig({ MAX_STORED_BYTES_PER_ACCOUNT: '1GB' })).toThrow(/MAX_STORED_BYTES_PER_ACCOUNT/);
  });
});
