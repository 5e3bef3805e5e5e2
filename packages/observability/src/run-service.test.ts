import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('runService', () => {
  it('ends a service that says it cannot go on: closed, then status 1 for its supervisor', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/failing-service.ts', import.meta.url));
    const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect({ code, stdout }).toEqual({ code: 1, stdout: 'closed\n' });
  });
});
