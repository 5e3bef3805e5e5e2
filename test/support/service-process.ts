import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { must } from '@ces/testing';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A real API or worker process started from the repository's entry points. */
export class ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  private output = '';

  constructor(name: string, entry: 'api' | 'worker', env: Record<string, string>) {
    this.name = name;
    this.child = spawn(process.execPath, [`${ROOT}apps/${entry}/src/main.ts`], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-200_000);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = once(this.child, 'exit').then(() => undefined);
  }

  get pid(): number {
    return must(this.child.pid);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What the process printed (its JSON logs), for assertions and for diagnosing a failure. */
  logs(): string {
    return this.output;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
