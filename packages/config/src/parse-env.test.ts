import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fields } from './index.ts';
import { ConfigError, parseEnv } from './parse-env.ts';

const schema = z.object({
  PORT: fields.port(8443),
  TRUST_PROXY: fields.boolean(false),
  RETENTION_SECONDS: fields.retentionSeconds,
  REDIS_URL: fields.redisUrl,
  REDIS_PREFIX: fields.redisPrefix,
});

describe('parseEnv', () => {
  it('applies defaults for unset and empty variables', () => {
    expect(parseEnv(schema, { PORT: '' })).toEqual({
      PORT: 8443,
      TRUST_PROXY: false,
      RETENTION_SECONDS: 3600,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: '{ces}',
    });
  });

  it('takes a value of spaces for unset, never for the number 0', () => {
    expect(parseEnv(schema, { PORT: ' ', RETENTION_SECONDS: '\t' })).toMatchObject({ PORT: 8443, RETENTION_SECONDS: 3600 });
  });

  it('coerces numbers and boolean words', () => {
    const config = parseEnv(schema, { PORT: '9000', TRUST_PROXY: 'true', RETENTION_SECONDS: '300' });
    expect(config).toMatchObject({ PORT: 9000, TRUST_PROXY: true, RETENTION_SECONDS: 300 });
    expect(parseEnv(schema, { TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
  });

  it('names every bad variable in one error', () => {
    let error: unknown;
    try {
      parseEnv(schema, { PORT: 'eighty', RETENTION_SECONDS: '299', TRUST_PROXY: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variables.sort()).toEqual(['PORT', 'RETENTION_SECONDS', 'TRUST_PROXY']);
    expect((error as ConfigError).message).toMatch(/RETENTION_SECONDS: must be at least 300/);
  });

  it('refuses a Redis prefix that is not a hash tag and a URL that is not redis://', () => {
    expect(() => parseEnv(schema, { REDIS_PREFIX: 'ces' })).toThrow(/REDIS_PREFIX/);
    expect(() => parseEnv(schema, { REDIS_URL: 'http://x' })).toThrow(/REDIS_URL/);
  });

  it('refuses a Redis URL that does not parse, naming the variable and never its value', () => {
    let error: unknown;
    try {
      parseEnv(schema, { REDIS_URL: 'redis://user:Sup3rS3cret@127.0.0.1:notaport' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect((error as ConfigError).message).not.toContain('Sup3rS3cret');
    expect(parseEnv(schema, { REDIS_URL: 'rediss://user:pw@redis.internal:6380/2' }).REDIS_URL).toBe('rediss://user:pw@redis.internal:6380/2');
  });

  it('ignores variables the schema does not name', () => {
    expect(parseEnv(schema, { HOME: '/root' })).not.toHaveProperty('HOME');
  });
});

describe('the secrets key', () => {
  const keySchema = z.object({ SECRETS_KEY: fields.secretsKey, SECRETS_KEY_PREVIOUS: fields.previousSecretsKeys });
  const bytes = Buffer.from('0123456789abcdef0123456789abcdef');

  it('takes 32 bytes as base64, base64url or hex, and older keys comma-separated', () => {
    for (const written of [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex')]) {
      expect(parseEnv(keySchema, { SECRETS_KEY: written }).SECRETS_KEY).toEqual(bytes);
    }
    const previous = Buffer.alloc(32, 7);
    expect(parseEnv(keySchema, { SECRETS_KEY_PREVIOUS: `${previous.toString('hex')}, ${bytes.toString('base64')}` }).SECRETS_KEY_PREVIOUS).toEqual([
      previous,
      bytes,
    ]);
    expect(parseEnv(keySchema, {})).toEqual({ SECRETS_KEY_PREVIOUS: [] });
  });

  it('refuses another length without repeating the value', () => {
    for (const env of [{ SECRETS_KEY: 'too-short-secret-value' }, { SECRETS_KEY_PREVIOUS: `${bytes.toString('hex')},short-old-secret` }]) {
      const error = (() => {
        try {
          parseEnv(keySchema, env);
        } catch (caught) {
          return caught as Error;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error?.message).toMatch(/32 bytes/);
      expect(error?.message).not.toMatch(/secret-value|short-old-secret/);
    }
  });
});
