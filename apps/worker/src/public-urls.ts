import type { SuspensionPolicy } from '@ces/engine';
import { CALLBACK_PATH, type ExecutionRecord } from '@ces/store';

/** Where a run waiting in `control.waitForCallback` is called back: under the public address. */
export function runCallbackUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${CALLBACK_PATH}/${token}`;
}

/**
 * The public address a run's URLs are made under: the one its API recorded when it accepted the
 * run (from PUBLIC_BASE_URL or the request's Host), else this worker's PUBLIC_BASE_URL; undefined
 * when neither exists.
 */
export function publicBaseUrlOf(record: Pick<ExecutionRecord, 'publicBaseUrl'>, workerSetting: string | undefined): string | undefined {
  return record.publicBaseUrl ?? workerSetting;
}

/** The suspension policy of one run: call backs under the run's own public address, when it has one. */
export function suspensionOf(policy: SuspensionPolicy, record: Pick<ExecutionRecord, 'publicBaseUrl'>): SuspensionPolicy {
  const base = record.publicBaseUrl;
  if (base === undefined) return policy;
  return { minimumMs: policy.minimumMs, callbackUrl: (token) => runCallbackUrl(base, token) };
}
