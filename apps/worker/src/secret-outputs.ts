import type { ChoreoDefinition, OutputFilter } from '@ces/language';
import { sealSecretOutputs, type ExecutionRecord, type SecretCipher } from '@ces/store';

/**
 * The outputs of a run kept sealed: those its Choreo declares `secret`, and the output filters'
 * results read from one of them (a filter's result is as secret as what it was read from).
 */
export function secretOutputNames(definition: ChoreoDefinition, filters: readonly OutputFilter[]): ReadonlySet<string> {
  const names = new Set(
    Object.entries(definition.outputs)
      .filter(([, output]) => output.secret === true)
      .map(([name]) => name),
  );
  for (const filter of filters) if (names.has(filter.variable)) names.add(filter.name);
  return names;
}

/**
 * How one run's outputs go to its record: its secret ones sealed, bound to the execution, every
 * time they are stored (checkpoint, suspension, end); the others as they are.
 */
export function outputSealer(cipher: SecretCipher | undefined, record: ExecutionRecord, definition: ChoreoDefinition) {
  const secret = secretOutputNames(definition, record.outputFilters);
  if (secret.size === 0) return (outputs: Record<string, string>) => outputs;
  return (outputs: Record<string, string>) => sealSecretOutputs(cipher, record.id, outputs, secret);
}
