import { z } from 'zod';

/**
 * The shapes of the schedule requests and answers, for the OpenAPI document. The request
 * document is checked by checkScheduleDocument (every problem at its pointer); these schemas say
 * the same for the document. Each `xml.name` is the root element of the XML body.
 */

export const scheduleNameParamsSchema = z.object({
  name: z.string().meta({ description: 'A schedule name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit.' }),
});

const scheduleInput = z.object({ name: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]) }).meta({ xml: { name: 'input' } });

export const scheduleRequestBodySchema = z
  .object({
    choreo: z.string().meta({ description: 'The id of the Choreo each tick runs, such as `/Library/Utilities/Encoding/Base64Encode`.' }),
    inputs: z
      .array(scheduleInput)
      .optional()
      .meta({ xml: { wrapped: true } }),
    preset: z.string().optional().meta({ description: "A preset of the account whose inputs fill those not given (as a run's `preset`)." }),
    cron: z.string().optional().meta({ description: 'A cron expression of 5 fields, or 6 with seconds first. Exactly one of `cron` and `every`.' }),
    every: z.string().optional().meta({ description: 'A fixed interval such as `1s`, `30s`, `5m`, `1h`, aligned on the epoch.' }),
    timezone: z.string().optional().meta({ description: 'The IANA time zone of `cron`; `UTC` when left out.' }),
    overlap: z.enum(['skip', 'buffer-one', 'allow-all']).optional().meta({
      description: 'A tick while the last run goes on: `skip` (default) starts nothing, `buffer-one` keeps one to start when it ends, `allow-all` starts it.',
    }),
    catchupWindowSeconds: z.number().int().min(0).max(86_400).optional().meta({
      description: 'Ticks missed (no worker, outage) within this many seconds are started late; older ones are counted as missed. 3600 when left out.',
    }),
    paused: z.boolean().optional(),
    note: z.string().max(1_024).optional(),
  })
  .meta({ id: 'ScheduleRequest', description: 'What a schedule runs and when.', xml: { name: 'schedule' } });

export const scheduleNoteBodySchema = z
  .object({ note: z.string().max(1_024).optional().meta({ description: 'Why; shown with the schedule as `stateNote`.' }) })
  .meta({ id: 'ScheduleStateChange', xml: { name: 'schedule' } });

export const backfillRequestBodySchema = z
  .object({
    from: z.union([z.number(), z.string()]).meta({ description: 'Epoch ms, inclusive.' }),
    to: z.union([z.number(), z.string()]).meta({ description: 'Epoch ms, inclusive; not in the future.' }),
  })
  .meta({ id: 'BackfillRequest', xml: { name: 'backfill' } });

const epochText = z.string().meta({ description: 'Epoch milliseconds, as text.' });

const scheduleFields = {
  name: z.string(),
  choreo: z.string(),
  inputs: z.array(z.object({ name: z.string(), value: z.string() }).meta({ xml: { name: 'input' } })),
  preset: z.string().optional(),
  cron: z.string().optional(),
  timezone: z.string().optional(),
  every: z.string().optional(),
  overlap: z.enum(['skip', 'buffer-one', 'allow-all']),
  catchupWindowSeconds: z.number().int(),
  note: z.string().optional(),
  state: z.enum(['active', 'paused']),
  stateNote: z.string().optional().meta({ description: 'The note of the last pause or resume.' }),
  nextTimes: z.array(epochText.meta({ xml: { name: 'time' } })).meta({ description: 'The next five ticks; empty while paused.' }),
  fired: z.number().int().meta({ description: 'Ticks that started a run (triggers and backfills included).' }),
  skipped: z.number().int().meta({ description: 'Ticks the overlap policy started nothing for.' }),
  missed: z.number().int().meta({ description: 'Ticks older than the catch-up window when a worker came to them.' }),
  bufferedTime: epochText.optional().meta({ description: 'Under `buffer-one`: the tick waiting for the last run to end.' }),
  lastRun: z
    .object({ id: z.string(), scheduledTime: epochText, status: z.string().meta({ description: 'Its status, or `GONE` once no longer kept.' }) })
    .optional()
    .meta({ description: 'The run of the last tick that started one.' }),
};

export const scheduleSchema = z.object(scheduleFields).meta({ id: 'Schedule', xml: { name: 'schedule' } });

export const scheduleListSchema = z
  .object({ schedules: z.array(z.object(scheduleFields).meta({ xml: { name: 'schedule' } })) })
  .meta({ id: 'ScheduleList', xml: { name: 'schedules' } });

export const backfillAnswerSchema = z
  .object({
    ticks: z.number().int().meta({ description: 'Ticks of the range.' }),
    started: z.array(z.object({ id: z.string(), scheduledTime: epochText }).meta({ xml: { name: 'run' } })).meta({ xml: { wrapped: true } }),
    skipped: z.number().int().meta({ description: 'Ticks the overlap policy started nothing for.' }),
    existing: z.number().int().meta({ description: 'Ticks whose run had started before (a backfill given twice).' }),
    buffered: z
      .object({ id: z.string(), scheduledTime: epochText })
      .optional()
      .meta({ description: 'Under `buffer-one`: the tick left waiting for the last run to end, and the id its run will have.' }),
  })
  .meta({ id: 'Backfill', xml: { name: 'backfill' } });

export const tickBufferedSchema = z
  .object({
    id: z.string().meta({ description: 'The id its run will have.' }),
    execution: z.object({
      id: z.string(),
      choreo: z.string(),
      starttime: z.literal('').meta({ description: 'Empty: not started.' }),
      endtime: z.literal(''),
      host: z.literal(''),
      status: z.literal('BUFFERED'),
      schedule: z.string(),
      scheduledTime: epochText,
    }),
  })
  .meta({
    id: 'TickBuffered',
    description:
      'Under `buffer-one`, while the last run goes on: the tick waits and starts once that run has ended. No `Location`: its run exists from then on.',
    xml: { name: 'execution' },
  });
