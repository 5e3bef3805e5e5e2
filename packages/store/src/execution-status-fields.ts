import type { ExecutionSummary } from './execution-record.ts';

const timeText = (epochMs: number | undefined) => (epochMs === undefined ? '' : String(epochMs));

/**
 * The `execution` object of the status resource: the specification's fields, `version` (an
 * extension) for a run of one of the account's own Choreos, `lasterror` and `errortime` on ERROR.
 * The API answers it and webhook deliveries carry it, so both show a run alike.
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
  };
}
