import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** CPU time (user + system) a process has used so far, in ms; undefined where /proc is not there. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return undefined;
  }
}

export type CpuSnapshot = Record<string, number | undefined>;

export function cpuSnapshot(pids: Record<string, number>): CpuSnapshot {
  return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuMs(pid)]));
}

/**
 * CPU ms each process group used between two snapshots, per operation: which process pays for
 * each run, and so which one limits the figure once the machine's cores are busy. Processes are
 * grouped by name prefix (worker-1, worker-2 → worker).
 */
export function cpuMsPerOperation(before: CpuSnapshot, after: CpuSnapshot, operations: number): Record<string, number> {
  const groups: Record<string, number> = {};
  for (const [name, end] of Object.entries(after)) {
    const start = before[name];
    if (end === undefined || start === undefined) continue;
    const group = name.replace(/-\d+$/, '');
    groups[group] = (groups[group] ?? 0) + (end - start);
  }
  return sharedCpuMs(groups, operations);
}

/** CPU ms by process group, added up over phases measured apart: `cpuMsPerOperation(before, after, 1)` of each. */
export function addCpuMs(total: Record<string, number>, phase: Record<string, number>): Record<string, number> {
  const sum = { ...total };
  for (const [group, ms] of Object.entries(phase)) sum[group] = (sum[group] ?? 0) + ms;
  return sum;
}

/** CPU ms by process group shared over `operations`, in µs steps. */
export function sharedCpuMs(totalMs: Record<string, number>, operations: number): Record<string, number> {
  return Object.fromEntries(Object.entries(totalMs).map(([group, ms]) => [group, Math.round((ms / Math.max(1, operations)) * 1000) / 1000]));
}
