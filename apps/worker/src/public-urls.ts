import type { SuspensionPolicy } from '@ces/engine';
import { CALLBACK_PATH, type ExecutionRecord } from '@ces/store';

/** Where a run waiting in `control.waitForCallback` is called back: under the public address. */
export function runCallbackUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${CALLBACK_PATH}/${token}`;
}

/** The suspension policy of one run: call backs under the run's own public address, when it has one. */
export function suspensionOf(policy: SuspensionPolicy, record: Pick<ExecutionRecord, 'publicBaseUrl'>): SuspensionPolicy {
  const base = record.publicBaseUrl;
  if (base === undefined) return policy;
  return { minimumMs: policy.minimumMs, callbackUrl: (token) => runCallbackUrl(base, token) };
}
