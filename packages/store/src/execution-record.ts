import type { ExecutionStatus } from './execution-status.ts';

export interface OutputFilter {
  name: string;
  path: string;
  variable: string;
}

/** An execution as stored in its Redis hash, decoded. Times are epoch milliseconds. */
export interface ExecutionRecord {
  id: string;
  account: string;
  /** Choreo id with its leading slash. */
  choreo: string;
  status: ExecutionStatus;
  starttime: number;
  /** Absent while RUNNING. */
  endtime?: number;
  /** Address of the worker host running it; '' while it waits in the queue. */
  host: string;
  /** The caller's `source_id`, '' when none was given. */
  sourceId: string;
  /** sha256 of the definition snapshot the run was accepted with. */
  definitionDigest: string;
  inputs: Record<string, string>;
  /**
   * The inputs taken from a preset (sealed-inputs.ts), which `inputs` leaves out; a store given the
   * secrets key opens them into `inputs` when a worker takes the run.
   */
  sealedInputs?: string;
  /** Checkpoint: index of the next step to run, and the results of the completed ones. */
  nextStep: number;
  results: Record<string, unknown>;
  output: Record<string, string>;
  lasterror?: string;
  errortime?: number;
  /** Epoch ms after which the run stops as TERMINATED_LIMIT. */
  deadline: number;
  cancelRequested: boolean;
  storeResults: boolean;
  outputFilters: OutputFilter[];
  /** Id of the worker that holds it, '' when none does. */
  workerId: string;
  /** The current holder's lease (unique to one take), '' when none holds it. */
  lease: string;
}

export type NewExecution = Pick<
  ExecutionRecord,
  'id' | 'account' | 'choreo' | 'starttime' | 'sourceId' | 'definitionDigest' | 'inputs' | 'deadline' | 'storeResults' | 'outputFilters' | 'sealedInputs'
>;

/** What a status answer shows of an execution, and who may see it; outputs only when asked for. */
export type ExecutionSummary = Pick<
  ExecutionRecord,
  'id' | 'account' | 'choreo' | 'status' | 'starttime' | 'endtime' | 'host' | 'lasterror' | 'errortime' | 'output'
>;

/** What a list of running executions shows of each: never its inputs, results or outputs. */
export type RunningExecution = Pick<ExecutionRecord, 'id' | 'account' | 'choreo' | 'status' | 'starttime' | 'host' | 'workerId' | 'cancelRequested'>;

/** What a list row holds of a RUNNING execution (keys.ts, accountRunningRows), as the scripts write it. */
export function encodeListRow(row: Pick<RunningExecution, 'starttime' | 'host' | 'workerId' | 'cancelRequested' | 'choreo'>): string {
  return [String(row.starttime), row.host, row.workerId, row.cancelRequested ? '1' : '', row.choreo].join('\t');
}

/** A list row back as the RUNNING execution it lists; the Choreo, last, is all the rest of the row. */
export function decodeListRow(id: string, account: string, row: string): RunningExecution {
  const [starttime = '', host = '', workerId = '', cancel = '', ...choreo] = row.split('\t');
  return { id, account, choreo: choreo.join('\t'), status: 'RUNNING', starttime: Number(starttime), host, workerId, cancelRequested: cancel === '1' };
}

/** The hash fields a RunningExecution is read from. */
export const RUNNING_FIELDS = ['id', 'account', 'choreo', 'status', 'starttime', 'host', 'worker', 'cancel'] as const;

/** The hash fields a summary is read from (see encodeNewExecution for the names). */
export const SUMMARY_FIELDS = ['id', 'account', 'choreo', 'status', 'starttime', 'endtime', 'host', 'lasterror', 'errortime'] as const;

/** The record exactly as `create` stores it: RUNNING, in the queue, no worker, nothing done. */
export function acceptedRecord(execution: NewExecution): ExecutionRecord {
  return {
    ...execution,
    status: 'RUNNING',
    host: '',
    nextStep: 0,
    results: {},
    output: {},
    cancelRequested: false,
    workerId: '',
    lease: '',
  };
}

/** Field names in the hash; short and stable, since every retained execution stores them. */
export function encodeNewExecution(execution: NewExecution): string[] {
  return [
    'id',
    execution.id,
    'account',
    execution.account,
    'choreo',
    execution.choreo,
    'status',
    'RUNNING',
    'starttime',
    String(execution.starttime),
    'host',
    '',
    'source',
    execution.sourceId,
    'def',
    execution.definitionDigest,
    'inputs',
    JSON.stringify(execution.inputs),
    'step',
    '0',
    'deadline',
    String(execution.deadline),
    'store',
    execution.storeResults ? '1' : '0',
    ...(execution.outputFilters.length > 0 ? ['filters', JSON.stringify(execution.outputFilters)] : []),
    ...(execution.sealedInputs !== undefined ? ['sealed', execution.sealedInputs] : []),
  ];
}

export function decodeExecution(hash: Record<string, string>): ExecutionRecord | undefined {
  if (!hash.id || !hash.status) return undefined;
  return {
    id: hash.id,
    account: hash.account ?? '',
    choreo: hash.choreo ?? '',
    status: hash.status as ExecutionStatus,
    starttime: Number(hash.starttime),
    ...(hash.endtime ? { endtime: Number(hash.endtime) } : {}),
    host: hash.host ?? '',
    sourceId: hash.source ?? '',
    definitionDigest: hash.def ?? '',
    inputs: parseJson(hash.inputs, {}),
    ...(hash.sealed !== undefined ? { sealedInputs: hash.sealed } : {}),
    nextStep: Number(hash.step ?? 0),
    results: parseJson(hash.results, {}),
    output: parseJson(hash.output, {}),
    ...(hash.lasterror !== undefined ? { lasterror: hash.lasterror } : {}),
    ...(hash.errortime ? { errortime: Number(hash.errortime) } : {}),
    deadline: Number(hash.deadline ?? 0),
    cancelRequested: hash.cancel === '1',
    storeResults: hash.store === '1',
    outputFilters: parseJson(hash.filters, []),
    workerId: hash.worker ?? '',
    lease: hash.lease ?? '',
  };
}

/** Turns an HMGET reply into an object of the fields it found (absent fields are left out). */
export function fieldsToObject(fields: readonly string[], values: readonly (string | null)[]): Record<string, string> {
  const result: Record<string, string> = {};
  fields.forEach((field, index) => {
    const value = values[index];
    if (value !== null && value !== undefined) result[field] = value;
  });
  return result;
}

/** Turns ioredis's flat [field, value, …] reply into an object. */
export function pairsToObject(flat: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  if (!Array.isArray(flat)) return result;
  for (let i = 0; i + 1 < flat.length; i += 2) result[String(flat[i])] = String(flat[i + 1]);
  return result;
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
