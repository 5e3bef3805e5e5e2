import type { ErrorType } from '@ces/language';
import { settle } from './construct.ts';
import type { Construct } from './construct.ts';

/** `try`: its steps; a failure a `catch` selects runs that catch's steps; `finally` runs after either. */
export const tryCatch: Construct<'try'> = async (node, scope, interpreter) => {
  let flow = await interpreter.runNodes(node.steps, scope);
  if (flow.type === 'failed') {
    const caught = flow.error;
    const handler = node.handlers.find((candidate) => candidate.errors === undefined || candidate.errors.has(caught.type as ErrorType));
    if (handler !== undefined) flow = await interpreter.runNodes(handler.steps, { ...scope, error: caught });
  }
  // A stopped run is resumed (or ended by its termination) without running `finally`.
  if (node.finally !== undefined && (flow.type === 'done' || flow.type === 'failed' || flow.type === 'returned')) {
    const after = await interpreter.runNodes(node.finally, scope);
    if (after.type !== 'done') return after;
  }
  return settle(node.id, scope, flow);
};
