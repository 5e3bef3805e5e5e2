import { evaluateOutputValues } from '@ces/language';
import type { Construct } from './construct.ts';

/** `return`: ends the run at once with these outputs. */
export const returnOutputs: Construct<'return'> = async (node, scope, interpreter) => {
  const outputs = await interpreter.evaluate(node.id, scope, () => evaluateOutputValues(node.outputs, interpreter.context(scope)));
  return outputs.type === 'failed' ? outputs : { type: 'returned', outputs: outputs.value as Record<string, string> };
};
