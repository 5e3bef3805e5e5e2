import type { Execution, ExecutionStatus, RunEvent } from '@ces/client';
import { EXIT } from './cli-errors.ts';
import { type CommandContext, emit } from './command-context.ts';
import { createRunDisplay } from './run-display.ts';
import { formatDuration, isoTime, table } from './values.ts';

/** The exit status that tells how a run ended. */
export function exitOf(status: ExecutionStatus): number {
  if (status === 'SUCCESS') return EXIT.ok;
  if (status === 'ERROR') return EXIT.failed;
  return EXIT.terminated;
}

const took = (execution: Execution) =>
  execution.endtime && execution.starttime ? formatDuration(Number(execution.endtime) - Number(execution.starttime)) : '';

function outputLines(output: Record<string, string>): string[] {
  return Object.entries(output).map(([name, value]) => `${name}: ${value}`);
}

/**
 * Follows a run to its end — its steps on stderr as they end, with a live line on a terminal, or
 * its events as JSON lines with `--json` — then writes its outputs and answers its exit status.
 */
export async function followRun(context: CommandContext, id: string): Promise<number> {
  const display = context.json ? undefined : createRunDisplay(context.io);
  let ended: Execution | undefined;
  try {
    for await (const event of context.client.events(id, context.signal ? { signal: context.signal } : {})) {
      if (context.json) context.io.out(JSON.stringify(event satisfies RunEvent));
      else display?.show(event);
      if (event.type === 'execution.ended') ended = event.execution;
    }
  } catch (error) {
    if (!context.signal?.aborted) throw error;
    display?.close();
    // Only the following stops: the run goes on where it runs.
    context.io.err(`stopped following ${id}, which goes on; follow it again with: ces runs follow ${id}\n`);
    return EXIT.interrupted;
  } finally {
    display?.close();
  }
  const { execution, output } = await context.client.outputs(id);
  const final = ended ?? execution;
  if (context.json) {
    context.io.out(JSON.stringify({ type: 'outputs', execution: final, output }));
  } else {
    const why = final.status === 'ERROR' && final.lasterror ? `: ${final.lasterror}` : '';
    context.io.err(`${final.status}${why}  ${final.choreo} in ${took(final)}  (${final.id})\n`);
    for (const line of outputLines(output)) context.io.out(line);
  }
  return exitOf(final.status);
}

export async function run(
  context: CommandContext,
  choreo: string,
  inputs: { name: string; value: string }[],
  options: { async: boolean; preset?: string | undefined },
): Promise<number> {
  const accepted = await context.client.run(choreo, inputs, { async: true, ...(options.preset ? { preset: options.preset } : {}) });
  if (options.async) {
    emit(context, { id: accepted.id, execution: accepted.execution }, [accepted.id]);
    if (!context.json) context.io.err(`accepted; follow it with: ces runs follow ${accepted.id}\n`);
    return EXIT.ok;
  }
  if (!context.json) context.io.err(`${choreo}  ${accepted.id}\n`);
  return followRun(context, accepted.id);
}

/** Redrives a failed run from where it failed and follows the new execution as `run` does. */
export async function redriveRun(context: CommandContext, id: string, inputs: { name: string; value: string }[], options: { async: boolean }): Promise<number> {
  const accepted = await context.client.redrive(id, inputs);
  if (options.async) {
    emit(context, { id: accepted.id, execution: accepted.execution }, [accepted.id]);
    if (!context.json) context.io.err(`redrive of ${id} accepted; follow it with: ces runs follow ${accepted.id}\n`);
    return EXIT.ok;
  }
  if (!context.json) context.io.err(`${accepted.execution.choreo}  ${accepted.id}, redriving ${id}\n`);
  return followRun(context, accepted.id);
}

export async function listRuns(context: CommandContext, filters: { status?: ExecutionStatus | 'any'; choreo?: string; since?: number; limit?: number }) {
  const page = await context.client.history(filters);
  emit(
    context,
    page,
    page.executions.length === 0
      ? ['No runs.']
      : table(
          ['ID', 'CHOREO', 'STATUS', 'STARTED', 'TOOK', 'HOST'],
          page.executions.map((e) => [e.id, e.choreo, e.status, isoTime(e.starttime), took(e as Execution), e.host || '(queued)']),
        ),
  );
  return EXIT.ok;
}

export async function showRun(context: CommandContext, id: string, options: { steps: boolean }) {
  if (options.steps) {
    const { execution, steps, dropped } = await context.client.steps(id);
    const lines = [
      ...executionLines(execution),
      '',
      ...(steps.length === 0
        ? ['No steps have ended yet.']
        : table(
            ['ADDRESS', 'ATTEMPT', 'OUTCOME', 'STARTED', 'TOOK', 'HOST', 'ERROR'],
            steps.map((s) => [s.address, s.attempt, s.outcome, isoTime(s.start), formatDuration(Number(s.duration)), s.host, s.error ?? '']),
          )),
      ...(dropped ? [`(${dropped.count} steps left out after the first ${dropped.after})`] : []),
    ];
    emit(context, { execution, steps, ...(dropped ? { dropped } : {}) }, lines);
    return EXIT.ok;
  }
  const { execution, output } = await context.client.outputs(id);
  emit(context, { execution, output }, [...executionLines(execution), ...(Object.keys(output).length ? ['', ...outputLines(output)] : [])]);
  return EXIT.ok;
}

function executionLines(execution: Execution): string[] {
  const rows: [string, string | undefined][] = [
    ['id', execution.id],
    ['choreo', execution.choreo],
    ['version', execution.version],
    ['status', execution.status],
    ['started', isoTime(execution.starttime)],
    ['ended', isoTime(execution.endtime) || '(running)'],
    ['took', took(execution) || undefined],
    ['host', execution.host || '(queued)'],
    ['error', execution.lasterror],
  ];
  return rows.filter(([, value]) => value !== undefined && value !== '').map(([name, value]) => `${`${name}:`.padEnd(9)}${value}`);
}

export async function terminateRun(context: CommandContext, id: string) {
  await context.client.terminate(id);
  emit(context, { id, terminationRequested: true }, [`termination of ${id} requested: it stops after its current step`]);
  return EXIT.ok;
}
