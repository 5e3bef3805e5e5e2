import type { ChoreoDefinition } from './definition.ts';

/** Whether a Choreo declares secret outputs: its runs are always taken, and their outputs sealed as they are stored. */
export function hasSecretOutputs(definition: ChoreoDefinition): boolean {
  return Object.values(definition.outputs).some((output) => output.secret === true);
}
