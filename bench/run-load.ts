import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load-job.ts';

const GENERATOR = fileURLToPath(new URL('./load-generator.ts', import.meta.url));

/**
 * Runs one job in a fresh load generator process and returns its result. The process is killed
 * when it outlives the job's own bound by `graceMs`, so a hung target cannot hang the benchmark.
 */
export function runLoad(job: LoadJob, graceMs = 60_000): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GENERATOR, JSON.stringify(job)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), job.durationMs + graceMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      const line = stdout.trim().split('\n').at(-1);
      if (code !== 0 || !line) {
        reject(new Error(`load generator (${job.kind}) exited with ${signal ?? code}`));
        return;
      }
      resolve(JSON.parse(line) as LoadResult);
    });
  });
}
