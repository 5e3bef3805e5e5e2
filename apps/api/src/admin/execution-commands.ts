import { isTerminal, terminateExecution, type RunningExecution } from '@ces/store';
import { AdminError } from './admin-error.ts';
import { emit, table, type CommandContext } from './command-context.ts';
import { startProgress } from './progress.ts';

const READ_BATCH = 100;

function view(record: RunningExecution) {
  return {
    id: record.id,
    account: record.account,
    choreo: record.choreo,
    status: record.status,
    starttime: new Date(record.starttime).toISOString(),
    // '' while it waits in the queue.
    host: record.host,
    worker: record.workerId,
    terminationRequested: record.terminationRequested,
  };
}

/** RUNNING executions, oldest first: of one account, or of every account up to `limit`. */
export async function listExecutions(context: CommandContext, options: { account?: string; limit: number }) {
  let records: RunningExecution[];
  if (options.account !== undefined) {
    records = (await context.executions.listRunning(options.account)).slice(0, options.limit);
  } else {
    const ids = await context.executions.runningIds(options.limit);
    const progress = startProgress(context.io, 'reading executions', ids.length);
    records = [];
    for (let start = 0; start < ids.length; start += READ_BATCH) {
      const batch = ids.slice(start, start + READ_BATCH);
      const read = await Promise.all(batch.map(({ id }) => context.executions.get(id)));
      // One that ended meanwhile is no longer running: leave it out.
      for (const record of read) if (record && !isTerminal(record.status)) records.push(record);
      progress.advance(batch.length);
    }
    progress.done();
  }
  const rows = records.map(view);
  emit(
    context,
    { executions: rows },
    rows.length === 0
      ? ['No running executions.']
      : table(
          ['ID', 'ACCOUNT', 'CHOREO', 'STARTED', 'HOST'],
          rows.map((r) => [r.id, r.account, r.choreo, r.starttime, r.host || '(queued)']),
        ),
  );
}

/** The same rule as `DELETE /choreo-executions/<id>`: ended now when no worker holds it, or after its current step. */
export async function terminate(context: CommandContext, id: string) {
  const outcome = await terminateExecution({ executions: context.executions, queues: context.queues() }, id);
  switch (outcome.kind) {
    case 'not-found':
      throw new AdminError(`no execution ${id} (unknown, or expired after its retention)`);
    case 'already-ended':
      throw new AdminError(`execution ${id} has already ended with status ${outcome.status}`);
    case 'already-terminated':
      return emit(context, { id, outcome: outcome.kind }, [`Execution ${id} was terminated already.`]);
    case 'ended':
      return emit(context, { id, outcome: outcome.kind }, [`Execution ${id} was not on a worker: it is TERMINATED_MANUALLY now.`]);
    case 'requested':
      return emit(context, { id, outcome: outcome.kind }, [`Termination of ${id} requested: it stops after its current step.`]);
  }
}
