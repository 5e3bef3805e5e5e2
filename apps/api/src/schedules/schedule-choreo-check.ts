import type { Principal } from '@ces/accounts';
import { bindInputs } from '@ces/language';
import type { ScheduleSpec } from '@ces/store';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { ScheduleProblem } from './schedule-request.ts';

/**
 * What the Choreo of a schedule says of it, when the credential writes it: one it may run, valid,
 * and inputs it declares, with every required one given (unless a preset may give them, which is
 * read only when a tick runs). Found now, not at 3 a.m. when the first tick would fail.
 */
export async function scheduleChoreoProblems(lookup: ChoreoLookup, principal: Principal, spec: ScheduleSpec): Promise<ScheduleProblem[]> {
  const found = await lookup.find(principal, spec.choreo);
  if (found === undefined) return [{ pointer: '/choreo', message: `is not a Choreo these credentials may run: ${spec.choreo}` }];
  const { entry } = found;
  if (!entry.valid || !entry.definition) return [{ pointer: '/choreo', message: `is not valid and cannot run: ${entry.problems.join('; ')}` }];
  const declared = entry.definition.inputs;
  const problems: ScheduleProblem[] = [];
  spec.inputs.forEach((input, index) => {
    if (!Object.hasOwn(declared, input.name)) problems.push({ pointer: `/inputs/${index}/name`, message: `is not an input of ${spec.choreo}` });
  });
  if (spec.preset === undefined) {
    const bound = bindInputs(entry.definition, Object.fromEntries(spec.inputs.map((input) => [input.name, input.value])));
    if (!bound.ok) problems.push({ pointer: '/inputs', message: `lacks required input${bound.missing.length > 1 ? 's' : ''} ${bound.missing.join(', ')}` });
  }
  return problems;
}
