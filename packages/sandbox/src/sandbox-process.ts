// Entry of a sandbox process (sandbox.ts): says it is ready once loaded, then runs one operation per
// message and answers with its result, the failure it threw, or that the result is too long.
import { flushCompileCache } from 'node:module';
import { Worker } from 'node:worker_threads';
import { prepareSandboxOperations, resultLength, SANDBOX_OPERATIONS, type SandboxOperation } from './sandbox-operations.ts';

const PARENT_CHECK_MS = 1000;

const send = (answer: object) => {
  // A parent that has gone (or stopped listening) has nobody to answer: the process just ends.
  if (process.connected) process.send?.(answer, undefined, undefined, () => {});
};

process.on('message', async ({ operation, request, resultLimit }: { operation: SandboxOperation; request: never; resultLimit: number }) => {
  try {
    // Awaited for the operations that are asynchronous (XML validation runs in libxml2's own thread).
    const result = await SANDBOX_OPERATIONS[operation](request);
    const length = resultLength(result);
    send(length > resultLimit ? { tooLong: length } : { result });
  } catch (error) {
    send({ failed: error instanceof Error ? error.message : String(error) });
  }
});

// Without its parent there is nothing more to do (sandbox.ts also kills those it still has when it exits).
process.on('disconnect', () => process.exit(0));

// A parent killed outright (SIGKILL, an abort) kills nothing, and an operation holds this
// process's main thread, where 'disconnect' would be heard, for as long as it runs: for ever, for
// `(a+)+$`. A thread of its own, free meanwhile, ends the process once its parent has gone.
const watchdog = new Worker(
  `const { ppid } = process;
   setInterval(() => { if (process.ppid !== ppid) process.kill(process.pid, 'SIGKILL'); }, ${PARENT_CHECK_MS});`,
  { eval: true, resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 } },
);
watchdog.unref();

// The compile cache (sandbox.ts turns it on) is written when a process exits, and these are killed:
// write it now, once the modules are loaded. Once it holds them, there is nothing to write.
await prepareSandboxOperations();
flushCompileCache();
send({ ready: true });
