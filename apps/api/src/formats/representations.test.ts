import type { ExecutionRecord } from '@ces/store';
import { describe, expect, it } from 'vitest';
import { runResult } from './representations.ts';

const ended = (fields: Partial<ExecutionRecord>) =>
  ({ id: 'a'.repeat(32), status: 'SUCCESS', starttime: 1, endtime: 2, output: { Out: 'v' }, ...fields }) as ExecutionRecord;

describe('the run response of a finished run', () => {
  it("says why an ERROR run failed, where the original's SDKs read it", () => {
    const { json, xml } = runResult(ended({ status: 'ERROR', lasterror: 'it broke', errortime: 2 }));
    expect(json).toEqual({
      output: { Out: 'v' },
      execution: { id: 'a'.repeat(32), status: 'ERROR', starttime: '1', endtime: '2', lasterror: 'it broke', errortime: '2' },
    });
    expect(xml.tree).toMatchObject({ status: 'ERROR', lasterror: 'it broke', errortime: '2' });
  });

  it("keeps the specification's four fields on every other ending", () => {
    for (const status of ['SUCCESS', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'] as const) {
      const { json } = runResult(ended({ status }));
      expect(Object.keys((json as { execution: object }).execution).sort()).toEqual(['endtime', 'id', 'starttime', 'status']);
    }
  });
});
