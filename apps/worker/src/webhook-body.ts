import { executionStatusFields, SEALED_OUTPUTS, type WebhookEventType, type WebhookRecord } from '@ces/store';

/**
 * A delivery's body: the event type, when it happened, the status resource's `execution` and the
 * outputs, secret ones left out (the record keeps them sealed in one entry, which stays behind).
 * A run that took sealed inputs may quote one in its error: its error stays with its status
 * resource, which masks them, and is not sent.
 */
export function webhookBody(type: WebhookEventType, record: WebhookRecord): string {
  const execution = executionStatusFields(record);
  if (execution.lasterror !== undefined && record.sealedInputs !== undefined) execution.lasterror = 'the error is shown by the execution status';
  const output = Object.fromEntries(Object.entries(record.output).filter(([name]) => name !== SEALED_OUTPUTS));
  const at = type === 'execution.started' ? record.starttime : (record.endtime ?? Date.now());
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data: { execution, output } });
}
