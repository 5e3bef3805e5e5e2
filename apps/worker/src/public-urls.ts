import type { SuspensionPolicy } from '@ces/engine';
import { type ExecutionRecord, runCallbackUrl } from '@ces/store';

/** The suspension policy of one run: call backs under the run's own public address, when it has one. */
export function suspensionOf(policy: SuspensionPolicy, record: Pick<ExecutionRecord, 'publicBaseUrl'>): SuspensionPolicy {
  const base = record.publicBaseUrl;
  if (base === undefined) return policy;
  return { minimumMs: policy.minimumMs, callbackUrl: (token) => runCallbackUrl(base, token) };
}
