import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createConnection, createServer } from 'node:net';
import { once } from 'node:events';

export const REDIS_INSTALL_HINT =
  'redis-server was not found on PATH. Install it (Debian/Ubuntu: `sudo apt-get install redis-server`, ' +
  'macOS: `brew install redis`) or point REDIS_URL at a running Redis.';

export class RedisServerNotFoundError extends Error {
  constructor() {
    super(REDIS_INSTALL_HINT);
    this.name = 'RedisServerNotFoundError';
  }
}

export function isRedisServerOnPath(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/** True when nothing listens on a loopback TCP port (so a server may take it). */
export async function isPortFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Asks the kernel for a free TCP port on loopback. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('could not allocate a port');
  return address.port;
}

export interface LocalRedisOptions {
  /** Folder for the AOF and RDB files; created when missing. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Append-only file on (the durable local default) or off (throwaway test servers). */
  appendOnly?: boolean;
  /** Where the server's own log goes; by default it is discarded. */
  stdio?: 'ignore' | 'inherit';
}

export interface LocalRedis {
  url: string;
  port: number;
  process: ChildProcess;
  /** Shuts the server down (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  close(): Promise<void>;
}

/** Written by the server itself at start, removed at its exit. */
const PID_FILE = 'redis-server.pid';

/** Another redis-server is using the data folder: two would write one append-only file. */
export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(`a redis-server (pid ${pid}) already uses ${dataDir}; stop it, or use another data folder`);
    this.name = 'DataDirInUseError';
  }
}

/** The pid of the redis-server that holds a data folder, if one is alive. */
function redisHolding(dataDir: string): number | undefined {
  const file = join(dataDir, PID_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  // A pid file left by a server killed outright may name a process that has reused its pid.
  const cmdline = `/proc/${pid}/cmdline`;
  if (existsSync(cmdline) && !readFileSync(cmdline, 'utf8').includes('redis-server')) return undefined;
  return pid;
}

/**
 * Starts `redis-server` from PATH as a child process and resolves once it accepts connections.
 * Refuses (DataDirInUseError) a data folder another redis-server is using, say one left running
 * by an earlier start: on another port, both would append to the same file.
 */
export async function startLocalRedis(options: LocalRedisOptions): Promise<LocalRedis> {
  if (!isRedisServerOnPath()) throw new RedisServerNotFoundError();
  mkdirSync(options.dataDir, { recursive: true });
  const holder = redisHolding(options.dataDir);
  if (holder !== undefined) throw new DataDirInUseError(options.dataDir, holder);
  const port = options.port && options.port > 0 ? options.port : await findFreePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    options.dataDir,
    '--appendonly',
    options.appendOnly === false ? 'no' : 'yes',
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    // Absolute: the server moves into --dir before it writes the file.
    '--pidfile',
    resolve(options.dataDir, PID_FILE),
  ];
  // Its own process group: a terminal's Ctrl-C must not stop Redis before the workers have handed
  // their runs back; whoever started it stops it last.
  const child = spawn('redis-server', args, { stdio: ['ignore', options.stdio ?? 'ignore', 'inherit'], detached: true });
  const exited = once(child, 'exit');
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode} while starting`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not accept connections on port ${port} within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
