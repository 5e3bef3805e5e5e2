import { evaluateValue, stepAddress } from '@ces/language';
import type { Construct } from './construct.ts';

/** `fail`: fails with its message, which a `catch` may select by the type `fail`. */
export const fail: Construct<'fail'> = async (node, scope, interpreter) => {
  const message = await interpreter.evaluate(node.id, scope, () => evaluateValue(node.message, interpreter.context(scope)));
  if (message.type === 'failed') return message;
  const text = typeof message.value === 'string' ? message.value : JSON.stringify(message.value);
  return { type: 'failed', error: { type: 'fail', message: text, step: stepAddress(scope.within, node.id) } };
};
