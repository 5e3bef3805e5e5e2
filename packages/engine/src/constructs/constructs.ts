import type { CompiledNode } from '@ces/language';
import { choice } from './choice.ts';
import type { Construct } from './construct.ts';
import { fail } from './fail.ts';
import { forEach } from './for-each.ts';
import { parallel } from './parallel.ts';
import { repeat } from './repeat.ts';
import { returnOutputs } from './return.ts';
import { step } from './step.ts';
import { tryCatch } from './try.ts';

/**
 * Every construct of the language, by the type of its compiled node: the interpreter runs a node
 * with its construct, at the top level as inside a block. Waits and sub-Choreos are step kinds
 * (`control.wait`, `control.waitForCallback`, `choreo.run`), which ask for what they need with
 * commands (step-command.ts) and the step context.
 */
export const CONSTRUCTS: { readonly [Type in CompiledNode['type']]: Construct<Type> } = {
  step,
  choice,
  forEach,
  repeat,
  parallel,
  try: tryCatch,
  return: returnOutputs,
  fail,
};
