import type { Representation } from '../formats/respond.ts';
import type { ScheduleProblem } from './schedule-request.ts';

/** 400 for a schedule request that is not one: the error body with every problem at its JSON pointer. */
export function scheduleProblems(problems: readonly ScheduleProblem[], requestId: string, what = 'schedule'): Representation {
  const message = `The ${what} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was changed.`;
  const list = problems.map(({ pointer, message }) => ({ pointer, message }));
  return {
    json: { error: { message, code: 'BAD_REQUEST', requestId, problems: list } },
    xml: { root: 'error', tree: { code: 'BAD_REQUEST', message, requestId, problems: { problem: list } } },
  };
}
