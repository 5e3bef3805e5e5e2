import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface BenchProcessOptions {
  name: string;
  /** A TypeScript entry point, run by this same Node (type stripping). */
  entry: string;
  env: Record<string, string>;
  /** Its stdout and stderr go to this file (JSON logs), read back when something goes wrong. */
  logFile: string;
  /** Arguments after the entry point (baselines take their settings as one JSON argument). */
  args?: string[];
  /** Extra Node flags, e.g. --cpu-prof for profiling. */
  nodeArgs?: string[];
  cwd: string;
}

/** A child process of the benchmark (API, worker, baseline server or worker), stopped by SIGTERM. */
export interface BenchProcess {
  name: string;
  child: ChildProcess;
  running(): boolean;
  logTail(chars?: number): string;
  /** SIGTERM, then SIGKILL after `graceMs`. A clean exit lets --cpu-prof write its profile. */
  stop(graceMs?: number): Promise<void>;
}

export function startBenchProcess(options: BenchProcessOptions): BenchProcess {
  const fd = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = once(child, 'exit');
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name: options.name,
    child,
    running,
    logTail(chars = 4_000) {
      try {
        return readFileSync(options.logFile, 'utf8').slice(-chars);
      } catch {
        return '';
      }
    },
    async stop(graceMs = 15_000) {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
