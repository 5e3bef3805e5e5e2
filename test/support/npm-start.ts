import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { must, waitFor } from '@ces/testing';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const START = join(ROOT, 'scripts/start.ts');
export const ADMIN = join(ROOT, 'apps/api/src/admin/main.ts');

/** `npm run admin -- <args>` as a person runs it beside `npm start`: no REDIS_URL. */
export function admin(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [ADMIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: '', REDIS_PREFIX: '', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

/** The process ids still alive among `pids`. */
export function alive(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

/** Every descendant of a process, from /proc. */
export function descendants(pid: number): number[] {
  const result = spawnSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of result.stdout.trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(must(queue.shift())) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Kills a start and everything it started. Its children have process groups of their own, so
 * killing it alone would leave them running; a test that stops early must not leave them behind.
 */
export function killTree(child: ChildProcess) {
  if (child.pid === undefined) return;
  for (const pid of [child.pid, ...descendants(child.pid)]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** `scripts/start.ts` with this environment, its output gathered; resolves once it says it is ready. */
export async function startService(env: Record<string, string>): Promise<{ process: ChildProcess; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, [START], {
    cwd: ROOT,
    // LOCAL_REDIS_PORT 0: a free port, whatever may be listening on the usual one.
    env: { ...process.env, REDIS_URL: '', LOCAL_REDIS_PORT: '0', ACCOUNTS_FILE: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  must(child.stdout).on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  must(child.stderr).on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await waitFor(() => output.includes('Ctrl-C stops everything') || child.exitCode !== null, {
    timeoutMs: 60_000,
    intervalMs: 100,
    what: 'npm start to say it is ready',
  });
  return { process: child, output: () => output };
}
