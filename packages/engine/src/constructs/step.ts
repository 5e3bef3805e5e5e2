import type { Construct } from './construct.ts';

/** A step of a kind: replayed from the progress when an earlier run completed it, else run and recorded. */
export const step: Construct<'step'> = (node, scope, interpreter) => interpreter.runStep(node, scope);
