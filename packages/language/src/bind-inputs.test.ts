import { describe, expect, it } from 'vitest';
import { bindInputs } from './bind-inputs.ts';
import { parseDefinition } from './parse-definition.ts';
import { stepLibraryForTest } from './step-library-for-test.ts';

const parsed = parseDefinition(
  {
    description: 'Inputs of every sort.',
    inputs: {
      Required: { description: 'Must be given.', required: true },
      Defaulted: { description: 'Has a default.', default: '500' },
      Optional: { description: 'May be left out.' },
    },
    steps: [{ id: 's', kind: 'noop' }],
  },
  stepLibraryForTest(),
);
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
const { definition } = parsed;

describe('bindInputs', () => {
  it('applies defaults and drops unknown names', () => {
    expect(bindInputs(definition, { Required: 'r', Unknown: 'u', constructor: 'c' })).toEqual({ ok: true, inputs: { Required: 'r', Defaulted: '500' } });
    expect(bindInputs(definition, { Required: '', Defaulted: '1', Optional: 'o' })).toEqual({
      ok: true,
      inputs: { Required: '', Defaulted: '1', Optional: 'o' },
    });
  });

  it('lists missing required inputs', () => {
    expect(bindInputs(definition, {})).toEqual({ ok: false, missing: ['Required'] });
  });
});
