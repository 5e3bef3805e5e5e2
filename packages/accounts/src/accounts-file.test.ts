import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountsFileError, readAccountsFile } from './accounts-file.ts';

describe('readAccountsFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'accounts-file-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads accounts, credentials and operators, with every Choreo by default', async () => {
    const path = write('good.json', JSON.stringify({ accounts: [{ name: 'demo', users: [{ name: 'admin', password: 'pw-123456' }] }] }));
    expect(await readAccountsFile(path)).toEqual({
      accounts: [{ name: 'demo', users: [{ name: 'admin', password: 'pw-123456', choreos: ['/**'] }], apps: [] }],
      operators: [],
    });
  });

  it('says where a file is not JSON without quoting it, since the text may be a password', async () => {
    const path = write('broken.json', '{"accounts": [{"name": "demo", "users": [{"name": "admin", "password": hunter2-secret}]}]}');
    const failure = await readAccountsFile(path).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AccountsFileError);
    expect((failure as Error).message).toContain(path);
    expect((failure as Error).message).toContain('is not JSON');
    expect((failure as Error).message).not.toContain('hunter2');
  });

  it('names what is wrong in a file of the wrong shape', async () => {
    const path = write('shape.json', JSON.stringify({ accounts: [{ name: 'demo', users: [{ name: 'admin', password: 42 }] }] }));
    await expect(readAccountsFile(path)).rejects.toThrow(/accounts\.0\.users\.0\.password/);
  });
});
