import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface SupervisedProcessOptions {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  /** Restart after an unexpected exit, with a growing delay (capped at 5 s). */
  restart: boolean;
  /** An exit with this status is never restarted: the process refused its configuration. */
  noRestartExitCode?: number;
  onExit?: (event: { name: string; code: number | null; signal: NodeJS.Signals | null; restarting: boolean }) => void;
}

/**
 * A child process that is restarted when it dies unexpectedly. Children get their own process
 * group, so a terminal's Ctrl-C reaches only the supervisor, which stops them in order.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly options: SupervisedProcessOptions;

  constructor(options: SupervisedProcessOptions) {
    this.options = options;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const child = spawn(this.options.command, this.options.args, {
      env: this.options.env,
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    this.child = child;
    const startedAt = Date.now();
    const ended = (code: number | null, signal: NodeJS.Signals | null) => {
      const restarting = !this.stopping && this.options.restart && code !== this.options.noRestartExitCode;
      this.options.onExit?.({ name: this.options.name, code, signal, restarting });
      if (!restarting) return;
      // A process that ran for a while earns a quick restart; a crash loop backs off.
      this.restarts = Date.now() - startedAt > 30_000 ? 0 : this.restarts + 1;
      this.restartTimer = setTimeout(() => this.start(), Math.min(250 * 2 ** this.restarts, 5_000));
    };
    child.once('exit', ended);
    // A process that could not be started at all (no such command, out of processes) never exits:
    // without this, the error would end the supervisor and leave its other processes orphaned.
    child.once('error', () => {
      if (child.pid === undefined) ended(null, null);
    });
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(killer);
  }
}
