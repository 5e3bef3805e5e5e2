import type { OutputFilter } from '@ces/language';
import type { ExecutionStatus } from './execution-status.ts';

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
  /** The version of an account's own Choreo the run was accepted with; absent for the Library's. */
  choreoVersion?: number;
  inputs: Record<string, string>;
  /**
   * The inputs taken from a preset (sealed-inputs.ts), which `inputs` leaves out; a store given the
   * secrets key opens them into `inputs` when a worker takes the run.
   */
  sealedInputs?: string;
  /** The run's own call-back (`?notify=`), to which its end is delivered. */
  notifyUrl?: string;
  /**
   * The top-level step reached (0 when absent): the last checkpoint's or the end's. What the run
   * has done is its progress (`exec:<id>:progress`), from which a take resumes it (resumePoint in
   * @ces/language); this is what an operator reads of it.
   */
  nextStep: number;
  /**
   * The results map of a record checkpointed by an earlier version, which wrote them all again at
   * each checkpoint (now each is appended to the progress once): read with the progress by the take
   * that resumes such a run, and by a redrive of a run it ended; {} for every other record.
   */
  results: Record<string, unknown>;
  /** Once progress has been recorded (a checkpoint, a block's entries, a wait): the address of its newest entry. */
  progressCursor?: string;
  /** A top-level wait's entries as records suspended by earlier versions keep them, by address (RECORD_FIELDS.waitEntries). */
  waitEntries?: Record<string, unknown>;
  output: Record<string, string>;
  lasterror?: string;
  errortime?: number;
  /** Epoch ms after which the run stops as TERMINATED_LIMIT. */
  deadline: number;
  /** Termination has been requested: the run stops after its current step. */
  terminationRequested: boolean;
  storeResults: boolean;
  outputFilters: OutputFilter[];
  /** Id of the worker that holds it, '' when none does. */
  workerId: string;
  /** The current holder's lease (unique to one take), '' when none holds it. */
  lease: string;
  /** For a child execution (a `choreo.run` step's): the id of the execution that started it. */
  parent?: string;
  /** How many parents up to a run started by a caller (absent: 0, a run of its own). */
  depth?: number;
  /**
   * The service's public address for this run (`https://host[:port]`), decided by the API that
   * accepted it: the URLs its steps hand out (callbacks, redirect URIs) are made under it. A child
   * execution has its parent's; absent on runs accepted without one (the worker's setting then).
   */
  publicBaseUrl?: string;
  /** For a redrive: the id of the execution it redrives. */
  redriveOf?: string;
  /** For an execution redriven: the id of its latest redrive. */
  redrivenBy?: string;
  /** For a run a schedule started: the schedule's name and the scheduled time of its tick (epoch ms). */
  schedule?: ScheduledBy;
}

/** The tick of a schedule that started a run. */
export interface ScheduledBy {
  name: string;
  scheduledTime: number;
}

export type NewExecution = Pick<
  ExecutionRecord,
  | 'id'
  | 'account'
  | 'choreo'
  | 'starttime'
  | 'sourceId'
  | 'definitionDigest'
  | 'inputs'
  | 'deadline'
  | 'storeResults'
  | 'outputFilters'
  | 'choreoVersion'
  | 'parent'
  | 'depth'
  | 'sealedInputs'
  | 'publicBaseUrl'
  | 'redriveOf'
  | 'schedule'
>;

/** What a status answer shows of an execution, and who may see it; outputs only when asked for. */
export type ExecutionSummary = Pick<
  ExecutionRecord,
  | 'id'
  | 'account'
  | 'choreo'
  | 'status'
  | 'starttime'
  | 'endtime'
  | 'host'
  | 'lasterror'
  | 'errortime'
  | 'output'
  | 'choreoVersion'
  | 'redriveOf'
  | 'redrivenBy'
  | 'schedule'
>;

/** What a list of running executions shows of each: never its inputs, results or outputs. */
export type RunningExecution = Pick<ExecutionRecord, 'id' | 'account' | 'choreo' | 'status' | 'starttime' | 'host' | 'workerId' | 'terminationRequested'>;

/** What a list row holds of a RUNNING execution (keys.ts, accountRunningRows), as the scripts write it. */
export function encodeListRow(row: Pick<RunningExecution, 'starttime' | 'host' | 'workerId' | 'terminationRequested' | 'choreo'>): string {
  return [String(row.starttime), row.host, row.workerId, row.terminationRequested ? '1' : '', row.choreo].join('\t');
}

/** A list row back as the RUNNING execution it lists; the Choreo, last, is all the rest of the row. */
export function decodeListRow(id: string, account: string, row: string): RunningExecution {
  const [starttime = '', host = '', workerId = '', flagged = '', ...choreo] = row.split('\t');
  return { id, account, choreo: choreo.join('\t'), status: 'RUNNING', starttime: Number(starttime), host, workerId, terminationRequested: flagged === '1' };
}

/**
 * The fields of an execution's hash (`exec:<id>`), by the name the code gives each: the one map
 * encodeNewExecution and decodeExecution write and read by, and the Lua scripts quote in their
 * headers. The stored names are short and stable: every retained execution stores them, and every
 * version of the scripts still running in a rolling upgrade reads them.
 */
export const RECORD_FIELDS = {
  id: 'id',
  account: 'account',
  choreo: 'choreo',
  status: 'status',
  starttime: 'starttime',
  /** Set by the end. */
  endtime: 'endtime',
  /** '' until a worker takes the execution, and again once it is handed back. */
  host: 'host',
  /** The caller's `source_id`; absent when none was given. */
  sourceId: 'source',
  definitionDigest: 'def',
  inputs: 'inputs',
  /** The inputs taken from a preset, sealed (sealed-inputs.ts); absent when the run named none. */
  sealedInputs: 'sealed',
  deadline: 'deadline',
  storeResults: 'store',
  outputFilters: 'filters',
  /**
   * The checkpoint: the top-level step reached (absent: 0), the outputs so far; the results are
   * entries of the progress. `results` is the map of every result so far as earlier versions
   * wrote it at each checkpoint (ExecutionRecord `results`), dropped at the end.
   */
  nextStep: 'step',
  results: 'results',
  /** The address of the newest entry of the progress (checkpoint-execution.lua, record-progress.lua): the take reads it when set. */
  progressCursor: 'cursor',
  output: 'output',
  /** The holder: the worker that took it and the lease of that take ('' once handed back). */
  workerId: 'worker',
  lease: 'lease',
  /**
   * The lease the last holder let go of when it handed the execution back or suspended it, so that
   * the call sent twice answers as the first time.
   */
  letGoLease: 'letgo',
  /**
   * The same as records written by earlier versions name it. Never read: only the process that let
   * go of a lease sends that call again, so a new one finds its own `letgo`. Deleted with the rest of
   * the holder's state at the end (end-record.lua), so that no ended record keeps it.
   */
  legacyLetGoLease: 'released',
  /** '1' once termination has been requested. */
  terminationRequested: 'terminate',
  /**
   * The same flag as earlier versions name it: read as well as `terminationRequested` and set with
   * it, so that a record flagged before an upgrade, or by a process not yet upgraded, is still
   * stopped, and such a process sees what a newer one flags (termination-flag.lua).
   */
  legacyTerminationRequested: 'cancel',
  /** '1' while a synchronous caller waits for the end, which is then published. */
  notifyEnd: 'notify',
  /** The run's own call-back (`?notify=`): the URL its end is delivered to (webhook-outbox.lua). */
  notifyUrl: 'webhook',
  /** The key of the run's Idempotency-Key entry, which expires with the record. */
  idempotencyEntry: 'idempotency',
  /** How many takes were refused for the account's share (MAX_EXECUTING_PER_ACCOUNT). */
  deferrals: 'deferrals',
  /** A child execution's parent, and its depth below the run a caller started. */
  parent: 'parent',
  depth: 'depth',
  /**
   * The whole step history of a run that ended before it had written any (an instant run, most
   * often), as one JSON array of stored events (step-history.ts): a field costs the record a
   * fraction of a list of its own. Longer histories are the list `exec:<id>:steps`.
   */
  stepHistory: 'history',
  /** On ERROR. */
  lasterror: 'lasterror',
  errortime: 'errortime',
  /** The version of an account's own Choreo the run was accepted with; absent for the catalogue's. */
  choreoVersion: 'version',
  /**
   * The progress entries of a top-level step's durable wait, one JSON object by address, as records
   * suspended by earlier versions keep them: read with the record by the take that resumes such a
   * run, deleted by the checkpoint after the wait. Suspensions now append them to the progress.
   */
  waitEntries: 'wait',
  /** The public address the run's URLs are made under; absent when its API decided none. */
  publicBaseUrl: 'base',
  /** A redrive's: the execution it redrives. */
  redriveOf: 'redriveOf',
  /** An execution redriven: its latest redrive (accept-execution.lua). */
  redrivenBy: 'redrivenBy',
  /** The schedule that started the run, and its tick's scheduled time; absent on other runs. */
  schedule: 'schedule',
  scheduledTime: 'tick',
} as const;

const F = RECORD_FIELDS;

/** The hash fields a RunningExecution is read from. */
export const RUNNING_FIELDS = [
  F.id,
  F.account,
  F.choreo,
  F.status,
  F.starttime,
  F.host,
  F.workerId,
  F.terminationRequested,
  F.legacyTerminationRequested,
] as const;

/** The hash fields a summary is read from. */
export const SUMMARY_FIELDS = [
  F.id,
  F.account,
  F.choreo,
  F.status,
  F.starttime,
  F.endtime,
  F.host,
  F.lasterror,
  F.errortime,
  F.choreoVersion,
  F.redriveOf,
  F.redrivenBy,
  F.schedule,
  F.scheduledTime,
] as const;

/** The record exactly as `accept` stores it: RUNNING, in the queue, no worker, nothing done. */
export function acceptedRecord(execution: NewExecution): ExecutionRecord {
  return {
    ...execution,
    status: 'RUNNING',
    host: '',
    nextStep: 0,
    results: {},
    output: {},
    terminationRequested: false,
    workerId: '',
    lease: '',
  };
}

/** The fields and values of a new record, as `accept` writes them. */
export function encodeNewExecution(execution: NewExecution, redrive?: { nextStep: number; entries: readonly (readonly [string, string])[] }): string[] {
  return [
    F.id,
    execution.id,
    F.account,
    execution.account,
    F.choreo,
    execution.choreo,
    F.status,
    'RUNNING',
    F.starttime,
    String(execution.starttime),
    F.host,
    '',
    ...(execution.sourceId !== '' ? [F.sourceId, execution.sourceId] : []),
    F.definitionDigest,
    execution.definitionDigest,
    F.inputs,
    JSON.stringify(execution.inputs),
    // Absent, the step reached is 0: every retained run would keep the field for nothing.
    ...(redrive !== undefined && redrive.nextStep > 0 ? [F.nextStep, String(redrive.nextStep)] : []),
    ...(redrive !== undefined && redrive.entries.length > 0 ? [F.progressCursor, (redrive.entries.at(-1) as readonly [string, string])[0]] : []),
    F.deadline,
    String(execution.deadline),
    F.storeResults,
    execution.storeResults ? '1' : '0',
    ...(execution.outputFilters.length > 0 ? [F.outputFilters, JSON.stringify(execution.outputFilters)] : []),
    ...(execution.choreoVersion !== undefined ? [F.choreoVersion, String(execution.choreoVersion)] : []),
    ...(execution.parent !== undefined ? [F.parent, execution.parent, F.depth, String(execution.depth ?? 1)] : []),
    ...(execution.sealedInputs !== undefined ? [F.sealedInputs, execution.sealedInputs] : []),
    ...(execution.publicBaseUrl !== undefined ? [F.publicBaseUrl, execution.publicBaseUrl] : []),
    ...(execution.redriveOf !== undefined ? [F.redriveOf, execution.redriveOf] : []),
    ...(execution.schedule !== undefined ? [F.schedule, execution.schedule.name, F.scheduledTime, String(execution.schedule.scheduledTime)] : []),
  ];
}

export function decodeExecution(hash: Record<string, string>): ExecutionRecord | undefined {
  const id = hash[F.id];
  const status = hash[F.status];
  if (!id || !status) return undefined;
  const endtime = hash[F.endtime];
  const lasterror = hash[F.lasterror];
  const errortime = hash[F.errortime];
  const choreoVersion = hash[F.choreoVersion];
  const progressCursor = hash[F.progressCursor];
  const waitEntries = hash[F.waitEntries];
  const parent = hash[F.parent];
  const sealedInputs = hash[F.sealedInputs];
  const notifyUrl = hash[F.notifyUrl];
  const publicBaseUrl = hash[F.publicBaseUrl];
  const redriveOf = hash[F.redriveOf];
  const redrivenBy = hash[F.redrivenBy];
  const schedule = hash[F.schedule];
  return {
    id,
    account: hash[F.account] ?? '',
    choreo: hash[F.choreo] ?? '',
    status: status as ExecutionStatus,
    starttime: Number(hash[F.starttime]),
    ...(endtime ? { endtime: Number(endtime) } : {}),
    host: hash[F.host] ?? '',
    sourceId: hash[F.sourceId] ?? '',
    definitionDigest: hash[F.definitionDigest] ?? '',
    ...(choreoVersion ? { choreoVersion: Number(choreoVersion) } : {}),
    inputs: parseJson(hash[F.inputs], {}),
    ...(sealedInputs !== undefined ? { sealedInputs } : {}),
    ...(notifyUrl !== undefined ? { notifyUrl } : {}),
    nextStep: Number(hash[F.nextStep] ?? 0),
    results: parseJson(hash[F.results], {}),
    ...(progressCursor ? { progressCursor } : {}),
    ...(waitEntries ? { waitEntries: parseJson(waitEntries, {}) } : {}),
    output: parseJson(hash[F.output], {}),
    ...(lasterror !== undefined ? { lasterror } : {}),
    ...(errortime ? { errortime: Number(errortime) } : {}),
    deadline: Number(hash[F.deadline] ?? 0),
    terminationRequested: hash[F.terminationRequested] === '1' || hash[F.legacyTerminationRequested] === '1',
    storeResults: hash[F.storeResults] === '1',
    outputFilters: parseJson(hash[F.outputFilters], []),
    workerId: hash[F.workerId] ?? '',
    lease: hash[F.lease] ?? '',
    ...(parent !== undefined ? { parent, depth: Number(hash[F.depth] ?? 1) } : {}),
    ...(publicBaseUrl ? { publicBaseUrl } : {}),
    ...(redriveOf ? { redriveOf } : {}),
    ...(redrivenBy ? { redrivenBy } : {}),
    ...(schedule !== undefined ? { schedule: { name: schedule, scheduledTime: Number(hash[F.scheduledTime] ?? 0) } } : {}),
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
