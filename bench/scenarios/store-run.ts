import { type ChildProcess, spawn } from 'node:child_process';
import type { NewExecution } from '@ces/store';

/** A plain run for scenarios that drive the store without the API: small inputs, a minute's deadline. */
export function storeRun(id: string, choreo: string, now = Date.now()): NewExecution {
  return {
    id,
    account: 'bench',
    choreo,
    starttime: now,
    sourceId: '',
    definitionDigest: 'digest',
    inputs: { Text: 'hello' },
    deadline: now + 60_000,
    storeResults: false,
    outputFilters: [],
  };
}

/** A redis-server of a scenario's own on 127.0.0.1, without persistence: `args` says its port and the rest. */
export function startRedisServer(args: string[]): ChildProcess {
  return spawn('redis-server', [...args, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
}
