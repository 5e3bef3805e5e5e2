import { hash } from 'node:crypto';
import type { NewExecution } from '@ces/store';

/**
 * What a run asks for, as one digest: its Choreo, inputs (defaults applied, in the definition's
 * order) and options. An Idempotency-Key given again must come with the same digest; its id, start
 * time and the caller's `source_id` do not count, nor whether it is waited for.
 */
export function runRequestDigest(
  execution: Pick<NewExecution, 'choreo' | 'inputs' | 'storeResults' | 'outputFilters'>,
  sealedFingerprint?: string,
  notifyUrl?: string,
): string {
  // The inputs a run keeps sealed count by their keyed fingerprint, never by their values.
  const parts: unknown[] = [execution.choreo, execution.inputs, execution.storeResults, execution.outputFilters];
  if (sealedFingerprint !== undefined) parts.push(sealedFingerprint);
  // Where its end goes is part of what a run asks for; a run without one digests as it always did.
  if (notifyUrl !== undefined) parts.push({ notify: notifyUrl });
  return hash('sha256', JSON.stringify(parts));
}
