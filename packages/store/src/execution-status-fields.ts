import type { ExecutionSummary } from './execution-record.ts';

const timeText = (epochMs: number | undefined) => (epochMs === undefined ? '' : String(epochMs));

/**
 * The `execution` object of the status resource, as webhook deliveries carry it: the
 * specification's fields, `version` (an extension) for a run of one of the account's own Choreos,
 * `lasterror` and `errortime` on ERROR, `redriveOf` and `redrivenBy` on a redrive and a run
 * redriven. The API's status answer (representations.ts) shows the same fields.
 */
export function executionStatusFields(record: ExecutionSummary): Record<string, string> {
  return {
    id: record.id,
    choreo: record.choreo,
    starttime: String(record.starttime),
    endtime: timeText(record.endtime),
    host: record.host,
    status: record.status,
    ...(record.choreoVersion !== undefined ? { version: String(record.choreoVersion) } : {}),
    ...(record.status === 'ERROR' ? { lasterror: record.lasterror ?? '', errortime: timeText(record.errortime) } : {}),
    ...(record.redriveOf !== undefined ? { redriveOf: record.redriveOf } : {}),
    ...(record.redrivenBy !== undefined ? { redrivenBy: record.redrivenBy } : {}),
  };
}
