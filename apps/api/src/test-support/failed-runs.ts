import type { TerminalStatus } from '@ces/store';
import type { InProcessApp, TestCredential } from './in-process-app.ts';

/**
 * Runs a Choreo through the API and plays its worker in the store: takes it, records the given
 * progress entries, and ends it in `status`. The redrive's API tests need failed runs
 * without a worker process.
 */
export async function failedRun(
  t: InProcessApp,
  options: {
    choreo: string;
    inputs?: Record<string, string>;
    credential?: TestCredential;
    status?: TerminalStatus | 'RUNNING';
    entries?: [string, unknown][];
  },
): Promise<string> {
  const inputs = Object.entries(options.inputs ?? {}).map(([name, value]) => ({ name, value }));
  const res = await t.call('POST', `/choreos${options.choreo}?mode=async`, options.credential ?? t.credentials.alice, { body: JSON.stringify({ inputs }) });
  if (res.status !== 202) throw new Error(`run answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  const status = options.status ?? 'ERROR';
  if (status === 'RUNNING') return id;
  const lease = `lease-${id}`;
  await t.executions.take(id, { host: '10.0.0.1', workerId: 'test-worker', lease });
  if (options.entries !== undefined) await t.executions.recordProgress(id, { nextStep: 0, entries: options.entries }, lease);
  await t.executions.end(id, { status, lease, ...(status === 'ERROR' ? { error: 'convert: the far side failed' } : {}) });
  return id;
}
