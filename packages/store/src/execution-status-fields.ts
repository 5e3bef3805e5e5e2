import type { ExecutionSummary } from './execution-record.ts';

const timeText = (epochMs: number | undefined) => (epochMs === undefined ? '' : String(epochMs));

/** `lasterror` and `errortime`: extensions present on ERROR only. */
export function errorFields(record: Pick<ExecutionSummary, 'status' | 'lasterror' | 'errortime'>): Record<string, string> {
  return record.status === 'ERROR' ? { lasterror: record.lasterror ?? '', errortime: timeText(record.errortime) } : {};
}

/** `version`: an extension present when the run was of one of the account's own Choreos. */
export function versionField(record: Pick<ExecutionSummary, 'choreoVersion'>): Record<string, string> {
  return record.choreoVersion !== undefined ? { version: String(record.choreoVersion) } : {};
}

/** `schedule` and `scheduledTime`: extensions present on a run a schedule started. */
export function scheduleFields(record: Pick<ExecutionSummary, 'schedule'>): Record<string, string> {
  return record.schedule !== undefined ? { schedule: record.schedule.name, scheduledTime: String(record.schedule.scheduledTime) } : {};
}

/** `redriveOf` and `redrivenBy`: extensions present on a redrive and on a run redriven. */
function redriveFields(record: Pick<ExecutionSummary, 'redriveOf' | 'redrivenBy'>): Record<string, string> {
  return {
    ...(record.redriveOf !== undefined ? { redriveOf: record.redriveOf } : {}),
    ...(record.redrivenBy !== undefined ? { redrivenBy: record.redrivenBy } : {}),
  };
}

/**
 * The `execution` object of the status resource, built here once for the API's answers and the
 * workers' webhook deliveries alike: the specification's fields, then the extensions.
 */
export function executionStatusFields(record: ExecutionSummary): Record<string, string> {
  return {
    id: record.id,
    choreo: record.choreo,
    starttime: String(record.starttime),
    endtime: timeText(record.endtime),
    host: record.host,
    status: record.status,
    ...versionField(record),
    ...scheduleFields(record),
    ...errorFields(record),
    ...redriveFields(record),
  };
}
