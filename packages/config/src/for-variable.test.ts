import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { forVariable, listenVariables } from './for-variable.ts';
import { ConfigError } from './parse-env.ts';

function listenOn(port: number, host: string): Promise<void> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

describe('forVariable', () => {
  it('answers what the step answers', async () => {
    expect(await forVariable('X', () => 42)).toBe(42);
  });

  it('names the variable whose value made a start-up step fail', async () => {
    const failed = forVariable('CHOREOS_DIR', () => readFile('/nonexistent/catalogue'));
    await expect(failed).rejects.toBeInstanceOf(ConfigError);
    await expect(failed).rejects.toThrow(/CHOREOS_DIR: ENOENT/);
  });

  it('blames the port for a port in use and the address for an address that does not resolve', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    const variables = listenVariables({ port: 'PORT', address: 'BIND_ADDRESS' });
    try {
      await expect(forVariable(variables, () => listenOn(port, '127.0.0.1'))).rejects.toThrow(/^invalid configuration:\n {2}PORT: .*EADDRINUSE/);
      await expect(forVariable(variables, () => listenOn(0, '999.1.1.1'))).rejects.toThrow(/^invalid configuration:\n {2}BIND_ADDRESS: /);
    } finally {
      taken.close();
    }
  });
});
