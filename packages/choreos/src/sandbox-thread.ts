// Entry of a sandbox thread (sandbox.ts): says it is ready once loaded, then runs one operation per
// message and answers with its result, the failure it threw, or that the result is too long.
import { parentPort, workerData } from 'node:worker_threads';
import { resultLength, SANDBOX_OPERATIONS, type SandboxOperation } from './sandbox-operations.ts';

const { maxResultLength } = workerData as { maxResultLength: number };

parentPort!.on('message', ({ operation, request, resultLimit }: { operation: SandboxOperation; request: never; resultLimit?: number }) => {
  try {
    const result = SANDBOX_OPERATIONS[operation](request);
    const length = resultLength(result);
    parentPort!.postMessage(length > (resultLimit ?? maxResultLength) ? { tooLong: length } : { result });
  } catch (error) {
    parentPort!.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
});

parentPort!.postMessage({ ready: true });
