#!/usr/bin/env node
// `ces`: the service's command line, for people and scripts. The only file of it that reads the
// environment and the process's arguments.
import { readFile } from 'node:fs/promises';
import { runCli } from './ces-cli.ts';
import { settingsFromEnv } from './cli-config.ts';

const status = await runCli(
  process.argv.slice(2),
  { settings: settingsFromEnv(process.env) },
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(text),
    errIsTerminal: Boolean(process.stderr.isTTY),
    readFile: (path) => readFile(path, 'utf8'),
  },
);
// Let stdout drain into a pipe before the exit status is given.
process.exitCode = status;
