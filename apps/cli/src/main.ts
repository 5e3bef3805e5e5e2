#!/usr/bin/env node
// `ces`: the service's command line, for people and scripts. The only file of it that reads the
// environment and the process's arguments.
import { readFile } from 'node:fs/promises';
import { runCli } from './ces-cli.ts';
import { settingsFromEnv } from './cli-config.ts';

// The first Ctrl-C stops following a run, tidily; a second one ends the process at once.
const interrupt = new AbortController();
process.once('SIGINT', () => {
  interrupt.abort();
  process.once('SIGINT', () => process.exit(130));
});

const status = await runCli(
  process.argv.slice(2),
  { settings: settingsFromEnv(process.env), signal: interrupt.signal },
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(text),
    errIsTerminal: Boolean(process.stderr.isTTY),
    errColumns: process.stderr.columns,
    readFile: (path) => readFile(path, 'utf8'),
  },
);
// Let stdout drain into a pipe before the exit status is given.
process.exitCode = status;
