import { describe, expect, it } from 'vitest';
import { clientConfigOf, settingsFromEnv } from './cli-config.ts';

const readFile = async (path: string) => {
  if (path === 'ca.pem') return '-----BEGIN CERTIFICATE-----';
  throw new Error('ENOENT: no such file');
};

describe('the configuration of ces', () => {
  it('reads CES_* and lets flags win', async () => {
    const env = settingsFromEnv({
      CES_URL: 'https://ces.example:8443',
      CES_ACCOUNT: 'acme',
      CES_USER: 'alice',
      CES_PASSWORD: 'pw',
      CES_CA_FILE: 'ca.pem',
      CES_APP: ' ',
    });
    expect(await clientConfigOf({}, env, readFile)).toEqual({
      url: 'https://ces.example:8443',
      account: 'acme',
      credentials: { name: 'alice', secret: 'pw' },
      ca: '-----BEGIN CERTIFICATE-----',
    });
    expect(await clientConfigOf({ account: 'other', url: 'https://localhost:9443' }, env, readFile)).toMatchObject({
      account: 'other',
      url: 'https://localhost:9443',
    });
  });

  it('takes an application with its key; an --app flag beats a CES_USER', async () => {
    const env = settingsFromEnv({ CES_ACCOUNT: 'acme', CES_USER: 'alice', CES_PASSWORD: 'pw', CES_KEY: 'k' });
    expect(await clientConfigOf({ app: 'robot' }, env, readFile)).toMatchObject({ url: 'https://localhost:8443', credentials: { name: 'robot', secret: 'k' } });
  });

  it('says what is missing or wrong', async () => {
    await expect(clientConfigOf({}, {}, readFile)).rejects.toThrow('no account: give --account or set CES_ACCOUNT');
    await expect(clientConfigOf({ account: 'a' }, {}, readFile)).rejects.toThrow('no credentials: set CES_USER and CES_PASSWORD, or CES_APP and CES_KEY');
    await expect(clientConfigOf({ account: 'a', user: 'u' }, {}, readFile)).rejects.toThrow('no password for user u: set CES_PASSWORD');
    await expect(clientConfigOf({ account: 'a' }, { user: 'u', app: 'x' }, readFile)).rejects.toThrow('not both');
    await expect(clientConfigOf({ account: 'a', url: 'localhost:8443' }, {}, readFile)).rejects.toThrow('must be https://');
    await expect(clientConfigOf({ account: 'a', url: 'nope' }, {}, readFile)).rejects.toThrow('is not a URL');
    await expect(clientConfigOf({ account: 'a', app: 'x', key: 'k', caFile: 'missing.pem' }, {}, readFile)).rejects.toThrow(
      'cannot read the CA file missing.pem',
    );
  });
});
