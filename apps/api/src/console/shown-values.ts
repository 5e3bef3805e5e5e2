import { hasSealedOutputs, openRunInputs, openSealedOutputs, SEALED_OUTPUTS, type ExecutionRecord, type SecretCipher } from '@ces/store';

/** One input or output as the console shows it: its value, or `masked` for one that is secret. */
export interface ShownValue {
  name: string;
  value: string;
  masked: boolean;
}

export interface ShownValues {
  values: ShownValue[];
  /** Secret values whose names cannot be read here (a service without SECRETS_KEY). */
  hidden: boolean;
}

const byName = (a: ShownValue, b: ShownValue) => a.name.localeCompare(b.name);

/**
 * A run's inputs: its own in clear; those taken from a preset or declared secret, which the record
 * keeps sealed, by name only. The key is used to learn their names, never to show a value.
 */
export function shownInputs(record: Pick<ExecutionRecord, 'id' | 'inputs' | 'sealedInputs'>, cipher: SecretCipher | undefined): ShownValues {
  const values: ShownValue[] = Object.entries(record.inputs).map(([name, value]) => ({ name, value, masked: false }));
  if (record.sealedInputs === undefined) return { values: values.sort(byName), hidden: false };
  if (!cipher) return { values: values.sort(byName), hidden: true };
  for (const name of Object.keys(openRunInputs(cipher, record.id, record.sealedInputs))) values.push({ name, value: '', masked: true });
  return { values: values.sort(byName), hidden: false };
}

/** A run's outputs: those its Choreo declares secret by name only. */
export function shownOutputs(record: Pick<ExecutionRecord, 'id' | 'output'>, cipher: SecretCipher | undefined): ShownValues {
  const clear = Object.entries(record.output).filter(([name]) => name !== SEALED_OUTPUTS);
  const values: ShownValue[] = clear.map(([name, value]) => ({ name, value, masked: false }));
  if (!hasSealedOutputs(record.output)) return { values: values.sort(byName), hidden: false };
  if (!cipher) return { values: values.sort(byName), hidden: true };
  const clearNames = new Set(clear.map(([name]) => name));
  for (const name of Object.keys(openSealedOutputs(cipher, record.id, record.output))) {
    if (!clearNames.has(name)) values.push({ name, value: '', masked: true });
  }
  return { values: values.sort(byName), hidden: false };
}
