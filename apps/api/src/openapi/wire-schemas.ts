import type { ExecutionStatus } from '@ces/store';
import { z } from 'zod';

/**
 * The shapes of the answers (formats/representations.ts builds them), for the OpenAPI document.
 * Every value the specification gives as text stays text: times are epoch milliseconds as strings.
 * Each `xml.name` is the root element of the XML answer.
 */

const epochText = z.string().meta({ description: 'Epoch milliseconds, as text; empty while not ended.' });
// Every status, listed here for the document; the type check keeps the list to real ones.
const EXECUTION_STATUSES = ['RUNNING', 'SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'] as const satisfies readonly ExecutionStatus[];
const status = z.enum(EXECUTION_STATUSES);
const outputs = z.record(z.string(), z.string()).meta({ description: 'Outputs by name.' });

const executionFields = {
  id: z.string(),
  choreo: z.string(),
  starttime: epochText,
  endtime: epochText,
  host: z.string().meta({ description: 'The worker that runs it; empty while it waits.' }),
  status,
  version: z.string().optional().meta({ description: "Extension. The version of the account's own Choreo that runs." }),
  schedule: z.string().optional().meta({ description: 'Extension. The schedule that started the run.' }),
  scheduledTime: z.string().optional().meta({ description: "Extension. The scheduled time of the schedule's tick that started the run, epoch ms." }),
  lasterror: z.string().optional().meta({ description: 'Extension, on ERROR only.' }),
  errortime: z.string().optional().meta({ description: 'Extension, on ERROR only.' }),
  redriveOf: z.string().optional().meta({ description: 'Extension. On a redrive: the execution it redrives.' }),
  redrivenBy: z.string().optional().meta({ description: 'Extension. On a run redriven: its latest redrive.' }),
};

const execution = z.object(executionFields).meta({ id: 'Execution' });

export const errorBodySchema = z
  .object({
    error: z.object({
      message: z.string(),
      code: z.string().meta({ description: 'One of the codes under Errors in the documentation; it maps one to one to the status.' }),
      requestId: z.string().meta({ description: 'The X-Request-Id of the answer.' }),
      problems: z
        .array(z.object({ pointer: z.string(), message: z.string() }))
        .optional()
        .meta({ description: 'For a document that is not one (a Choreo, a schedule, a backfill): each problem at an RFC 6901 pointer.' }),
    }),
  })
  .meta({ id: 'Error', description: 'The one error shape; in XML `<error><code/><message/><requestId/></error>`.', xml: { name: 'error' } });

export const choreoListSchema = z
  .object({ resources: z.array(z.string().meta({ xml: { name: 'resource' } })) })
  .meta({ id: 'ChoreoList', xml: { name: 'resources' } });

const described = z.record(z.string(), z.object({ description: z.string(), type: z.string() }));

export const choreoDetailsSchema = z
  .object({
    valid: z.enum(['true', 'false']),
    version: z.string().optional().meta({ description: "Extension, for the account's own Choreos." }),
    inputs: described,
    outputs: described,
  })
  .meta({ id: 'ChoreoDetails', description: 'In XML, inputs and outputs are lists of `<input>`/`<output>` with `<name>`.', xml: { name: 'choreo' } });

export const runResultSchema = z
  .object({
    output: outputs,
    execution: z.object({
      id: z.string(),
      status,
      starttime: epochText,
      endtime: epochText,
      version: executionFields.version,
      lasterror: executionFields.lasterror,
      errortime: executionFields.errortime,
    }),
  })
  .meta({ id: 'RunResult', description: 'A run that ended while the request waited.', xml: { name: 'execution' } });

export const runAcceptedSchema = z
  .object({ id: z.string(), execution })
  .meta({ id: 'RunAccepted', description: 'A run still going; `Location` names its status.', xml: { name: 'execution' } });

const step = z.object({
  id: z.string(),
  address: z.string(),
  iteration: z.string().optional(),
  attempt: z.string(),
  start: z.string(),
  end: z.string(),
  duration: z.string(),
  host: z.string(),
  outcome: z.string(),
  error: z.string().optional(),
});

export const executionStatusSchema = z
  .object({
    execution,
    output: outputs.optional().meta({ description: 'With `?view=outputs`.' }),
    steps: z.array(step).optional().meta({ description: 'With `?view=steps`: one entry per attempt of each step.' }),
    dropped: z.object({ count: z.string(), after: z.string() }).optional().meta({ description: 'Events left out past the bound of the history.' }),
  })
  .meta({ id: 'ExecutionStatus', xml: { name: 'execution' } });

export const runningListSchema = z
  .object({
    executions: z.array(z.object({ id: z.string(), choreo: z.string(), starttime: epochText, host: z.string(), status }).meta({ xml: { name: 'execution' } })),
  })
  .meta({ id: 'RunningExecutions', xml: { name: 'executions' } });

export const historyPageSchema = z
  .object({
    executions: z.array(
      z
        .object({
          id: z.string(),
          choreo: z.string(),
          starttime: epochText,
          host: z.string(),
          status,
          endtime: z.string(),
          schedule: executionFields.schedule,
          scheduledTime: executionFields.scheduledTime,
        })
        .meta({ xml: { name: 'execution' } }),
    ),
    next: z.string().optional().meta({ description: 'The cursor of the next page; absent on the last.' }),
  })
  .meta({ id: 'ExecutionHistory', xml: { name: 'executions' } });

export const presetListSchema = z
  .object({ presets: z.array(z.string().meta({ xml: { name: 'preset' } })) })
  .meta({ id: 'PresetList', xml: { name: 'presets' } });

export const presetDetailsSchema = z
  .object({
    name: z.string(),
    inputs: z.array(
      z.object({ name: z.string(), value: z.string().meta({ description: '`********` unless shown.' }), secret: z.boolean() }).meta({ xml: { name: 'input' } }),
    ),
  })
  .meta({ id: 'Preset', xml: { name: 'preset' } });

export const callbackDeliveredSchema = z
  .object({ callback: z.object({ delivered: z.literal(true) }) })
  .meta({ id: 'CallbackDelivered', xml: { name: 'callback' } });
