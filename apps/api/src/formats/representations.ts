import type { CatalogueEntry } from '@ces/catalogue';
import {
  errorFields,
  executionStatusFields,
  scheduleFields,
  versionField,
  type ExecutionRecord,
  type HistoryEntry,
  type ExecutionSummary,
  type RunningExecution,
  type StepHistory,
} from '@ces/store';
import type { Representation } from './respond.ts';
import type { XmlTree } from './xml.ts';

/** The wire shapes of the specification, in JSON and XML, built in one place. */

function outputsXml(output: Record<string, string>): XmlTree {
  return { output: Object.entries(output).map(([name, value]) => ({ name, value })) };
}

const timeText = (epochMs: number | undefined) => (epochMs === undefined ? '' : String(epochMs));

export function choreoList(ids: string[]): Representation {
  return { json: { resources: ids }, xml: { root: 'resources', tree: { resource: ids } } };
}

/** A Choreo's details; `version` (an extension) for one of the account's own. */
export function choreoDetails(entry: CatalogueEntry, version?: number): Representation {
  const describe = (items: Record<string, { description: string; type: string }>) =>
    Object.fromEntries(Object.entries(items).map(([name, { description, type }]) => [name, { description, type }]));
  const inputs = describe(entry.inputs);
  const outputs = describe(entry.outputs);
  const versioned: Record<string, string> = version !== undefined ? { version: String(version) } : {};
  return {
    json: { valid: String(entry.valid), ...versioned, inputs, outputs },
    xml: {
      root: 'choreo',
      tree: {
        valid: String(entry.valid),
        ...versioned,
        inputs: { input: Object.entries(inputs).map(([name, d]) => ({ name, ...d })) },
        outputs: { output: Object.entries(outputs).map(([name, d]) => ({ name, ...d })) },
      },
    },
  };
}

/**
 * The run response of a finished run: `{output, execution}`; XML `<execution>… <outputs>`. Its
 * `execution` has the specification's four fields, and on ERROR `lasterror` and `errortime`: the
 * original's SDKs read why a synchronous run failed from its run response.
 */
export function runResult(record: ExecutionRecord): Representation {
  const execution: Record<string, string> = {
    id: record.id,
    status: record.status,
    starttime: String(record.starttime),
    endtime: timeText(record.endtime),
    ...versionField(record),
    ...errorFields(record),
  };
  return {
    json: { output: record.output, execution },
    xml: { root: 'execution', tree: { ...execution, outputs: outputsXml(record.output) } },
  };
}

/** The answer to an accepted run that is still going: 202 with the id on top. */
export function runAccepted(record: ExecutionRecord): Representation {
  const execution = executionStatusFields(record);
  return { json: { id: record.id, execution }, xml: { root: 'execution', tree: execution } };
}

export function executionStatus(record: ExecutionSummary, withOutputs: boolean): Representation {
  const execution = executionStatusFields(record);
  return withOutputs
    ? { json: { execution, output: record.output }, xml: { root: 'execution', tree: { ...execution, outputs: outputsXml(record.output) } } }
    : { json: { execution }, xml: { root: 'execution', tree: execution } };
}

/**
 * The status with the step history (`?view=steps`): one entry per attempt of each step, in the
 * order written, every value a string as elsewhere; `dropped` (present only past the history's
 * bound) counts the events left out after the first `after` ones.
 */
export function executionSteps(record: ExecutionSummary, history: StepHistory): Representation {
  const execution = executionStatusFields(record);
  const steps = history.events.map(
    (event): Record<string, string> => ({
      id: event.id,
      address: event.address,
      ...(event.iteration !== undefined ? { iteration: String(event.iteration) } : {}),
      attempt: String(event.attempt),
      start: String(event.start),
      end: String(event.end),
      duration: String(event.durationMs),
      host: event.host,
      outcome: event.outcome,
      ...(event.error !== undefined ? { error: event.error } : {}),
    }),
  );
  const dropped: Record<string, Record<string, string>> = history.dropped === undefined
    ? {}
    : { dropped: { count: String(history.dropped.count), after: String(history.dropped.after) } };
  return {
    json: { execution, steps, ...dropped },
    xml: { root: 'execution', tree: { ...execution, steps: { step: steps }, ...dropped } },
  };
}

export function runningList(records: RunningExecution[]): Representation {
  const executions = records.map((record) => ({
    id: record.id,
    choreo: record.choreo,
    starttime: String(record.starttime),
    host: record.host,
    status: record.status,
  }));
  return { json: { executions }, xml: { root: 'executions', tree: { execution: executions } } };
}

/** A page of the run history: entries as in the running list, with `endtime` ('' while running). */
export function historyList(entries: HistoryEntry[], next: string | undefined): Representation {
  const executions = entries.map((entry) => ({
    id: entry.id,
    choreo: entry.choreo,
    starttime: String(entry.starttime),
    host: entry.host,
    status: entry.status,
    endtime: timeText(entry.endtime),
    ...scheduleFields(entry),
  }));
  if (next === undefined) return { json: { executions }, xml: { root: 'executions', tree: { execution: executions } } };
  return { json: { executions, next }, xml: { root: 'executions', tree: { execution: executions, next } } };
}

/**
 * `{"error": {"message", "code", "requestId"}}`. The original's Ruby SDK tells an error of the
 * service from any other by matching `{"error":{"message":"[^}]+"}}` on the body's text, so the
 * message comes first, the text is compact and a `}` inside a value is written `\u007d` (the same
 * JSON to every parser).
 */
export function errorBody(code: string, message: string, requestId: string): Representation {
  const text = (value: string) => JSON.stringify(value).replaceAll('}', '\\u007d');
  return {
    json: { error: { message, code, requestId } },
    jsonText: `{"error":{"message":${text(message)},"code":${text(code)},"requestId":${text(requestId)}}}`,
    xml: { root: 'error', tree: { code, message, requestId } },
  };
}

/**
 * 400 for a Choreo document that is not one: the error body with every problem, each at an RFC
 * 6901 JSON pointer into the document ("" for the document itself).
 */
export function documentProblems(
  problems: readonly { pointer: string; message: string }[],
  requestId: string,
  document = 'The Choreo document',
): Representation {
  const message = `${document} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was stored.`;
  const list = problems.map(({ pointer, message }) => ({ pointer, message }));
  return {
    json: { error: { message, code: 'BAD_REQUEST', requestId, problems: list } },
    xml: { root: 'error', tree: { code: 'BAD_REQUEST', message, requestId, problems: { problem: list } } },
  };
}

export function presetList(names: string[]): Representation {
  return { json: { presets: names }, xml: { root: 'presets', tree: { preset: names } } };
}

/** A preset's inputs, their values masked unless shown (and a secret input's never). */
export const MASKED_VALUE = '********';

export function presetDetails(preset: { name: string; inputs: { name: string; secret: boolean; value?: string }[] }): Representation {
  const inputs = preset.inputs.map((input) => ({ name: input.name, value: input.secret ? MASKED_VALUE : (input.value ?? MASKED_VALUE), secret: input.secret }));
  return {
    json: { name: preset.name, inputs },
    xml: {
      root: 'preset',
      tree: { name: preset.name, inputs: { input: inputs.map((input) => ({ ...input, secret: String(input.secret) })) } },
    },
  };
}
