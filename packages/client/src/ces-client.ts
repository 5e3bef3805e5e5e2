import createClient from 'openapi-fetch';
import { ApiError, ConnectionError } from './client-errors.ts';
import type { components, paths } from './generated/api.ts';
import { createHttpsFetch } from './https-fetch.ts';
import { type Execution, type ExecutionStatus, isEnded, type RunEvent } from './run-events.ts';
import { createSseParser } from './sse-parser.ts';

const BASE_PATH = '/service-api/1.0';

type Schemas = components['schemas'];
export type ChoreoDetails = Schemas['ChoreoDetails'];
/** A Choreo document, as the service's document describes it (its steps: docs/choreos.md). */
export type ChoreoDocument = paths['/service-api/1.0/choreos/{id}']['put']['requestBody']['content']['application/json'];
export type StepEntry = NonNullable<Schemas['ExecutionStatus']['steps']>[number];
export type HistoryEntry = Schemas['ExecutionHistory']['executions'][number];
export type RunningEntry = Schemas['RunningExecutions']['executions'][number];
export type Preset = Schemas['Preset'];
export type PresetInput = Schemas['PresetRequest']['inputs'][number];
export type OutputFilter = NonNullable<Schemas['RunRequest']['outputFilters']>[number];

export interface CesClientConfig {
  /** The service's address, `https://host:port`; a trailing `/service-api/1.0` is allowed. */
  url: string;
  /** The account the credentials belong to (the `x-service-domain` header names it). */
  account: string;
  /** A user's name and password, or an application's name and key. */
  credentials: { name: string; secret: string };
  /** PEM certificates to trust besides Node's own: the service's certificate when it made its own. */
  ca?: string | undefined;
  /** How long a request may wait for its answer's headers (a synchronous run waits on the service). Default 60 s. */
  requestTimeoutMs?: number;
  /** The longest pause between two polls of a run's status. Default 2 s. */
  pollIntervalMs?: number;
}

export interface RunOptions {
  /** Answer with the accepted run at once instead of waiting for its end. */
  async?: boolean;
  /** A stored input set of the account; the run's own inputs win over it. */
  preset?: string;
  sourceId?: string;
  /** The same key with the same run starts it once, however often it is sent. */
  idempotencyKey?: string;
  outputFilters?: OutputFilter[];
}

/** A run as the service answered it: ended (`output` present) or still going. */
export interface RunResult {
  id: string;
  execution: Execution;
  output?: Record<string, string>;
}

/** A run that has ended, with every output. */
export interface EndedRun {
  execution: Execution;
  output: Record<string, string>;
}

export interface HistoryFilters {
  status?: ExecutionStatus | 'any';
  /** A Choreo id, `/Library/...`. */
  choreo?: string;
  /** Started at or after / at or before this time. */
  since?: Date | number;
  until?: Date | number;
  limit?: number;
  /** The `next` of the previous page. */
  cursor?: string;
}

export interface EventsOptions {
  /** Resume after this event (the `id` of the last one seen). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Reconnect when nothing, not even a heartbeat, came for this long. Default 45 s. */
  idleTimeoutMs?: number;
}

export type Inputs = Record<string, string> | { name: string; value: string }[];

const delay = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const epoch = (time: Date | number) => String(typeof time === 'number' ? time : time.getTime());

/**
 * The service's error, from its body; an error answer without that body came from something else
 * at the address (another server, a proxy), which says more about the URL than about the request.
 */
async function apiErrorOf(response: Response, origin: string, body?: unknown): Promise<ApiError | ConnectionError> {
  let parsed = body;
  if (parsed === undefined) {
    const text = await response.text().catch(() => '');
    try {
      parsed = JSON.parse(text);
    } catch {}
  }
  const error = (parsed as { error?: { code?: string; message?: string; requestId?: string; problems?: { pointer: string; message: string }[] } })?.error;
  if (error?.message === undefined) {
    const problem = response.status === 502 || response.status === 503 || response.status === 504 ? 'unreachable' : 'not-the-service';
    return new ConnectionError(
      problem,
      `${origin} answered ${response.status} ${response.statusText} without the service's error body; check the URL`.replace(/ {2}/, ' '),
    );
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, {
    ...error,
    ...(Number.isFinite(retryAfter) && response.headers.has('retry-after') ? { retryAfterSeconds: retryAfter } : {}),
  });
}

/** A Choreo id's path segments, each encoded, so that its slashes stay slashes. */
const choreoPath = (id: string) => id.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');

/**
 * A client of one account of the service: the typed operations of its OpenAPI document, and what
 * a program wants on top (run and wait, follow a run's events, its history).
 */
export function createCesClient(config: CesClientConfig) {
  const origin = config.url.replace(/\/+$/, '').replace(/\/service-api\/1\.0$/, '');
  const pollMaxMs = config.pollIntervalMs ?? 2000;
  const transport = createHttpsFetch({ ca: config.ca, timeoutMs: config.requestTimeoutMs ?? 60_000 });
  const headers = {
    authorization: `Basic ${Buffer.from(`${config.credentials.name}:${config.credentials.secret}`).toString('base64')}`,
    'x-service-domain': `/${config.account}/master`,
    accept: 'application/json',
  };
  const api = createClient<paths>({
    baseUrl: origin,
    fetch: transport,
    headers,
    pathSerializer: (path, params) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = String((params as Record<string, unknown>)[name] ?? '');
        return name === 'id' ? choreoPath(value) : encodeURIComponent(value);
      }),
  });

  /** The data of a successful answer; an ApiError otherwise; a ConnectionError when it was not the service's. */
  async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data: T; response: Response }> {
    let result: Awaited<typeof call>;
    try {
      result = await call;
    } catch (error) {
      if (error instanceof ConnectionError || (error as Error).name === 'AbortError') throw error;
      // A body that is not JSON: another server answered at that address.
      throw new ConnectionError('not-the-service', `${origin} answered with something the service never sends (${(error as Error).message}); check the URL`, {
        cause: error,
      });
    }
    if (!result.response.ok) throw await apiErrorOf(result.response, origin, result.error);
    const type = result.response.headers.get('content-type') ?? '';
    if (result.response.status !== 204 && !type.includes('json')) {
      throw new ConnectionError('not-the-service', `${origin} answered ${type || 'without a content type'}, not the service's JSON; check the URL`);
    }
    return { data: result.data as T, response: result.response };
  }

  async function status(id: string, view?: 'outputs' | 'steps') {
    const { data } = await answer(api.GET('/service-api/1.0/choreo-executions/{id}', { params: { path: { id }, query: view ? { view } : {} } }));
    return data;
  }

  /** Polls the status, sooner at first, until the run has ended; then reads its outputs. */
  async function wait(id: string, options: { signal?: AbortSignal } = {}): Promise<EndedRun> {
    let pause = 100;
    for (;;) {
      const { execution } = await status(id);
      if (isEnded(execution.status)) break;
      await delay(pause, options.signal);
      pause = Math.min(pollMaxMs, pause * 2);
    }
    const ended = await status(id, 'outputs');
    return { execution: ended.execution, output: ended.output ?? {} };
  }

  /** Without the events endpoint: step endings read from the step history, then the end. */
  async function* pollEvents(id: string, signal: AbortSignal | undefined): AsyncGenerator<RunEvent> {
    const seen = new Set<string>();
    let pause = 100;
    for (;;) {
      const { execution, steps = [] } = await status(id, 'steps');
      for (const step of steps) {
        const key = `${step.address}|${step.attempt}|${step.end}`;
        if (seen.has(key)) continue;
        seen.add(key);
        yield {
          type: 'step.ended',
          time: step.end,
          step: step.id,
          address: step.address,
          ...(step.iteration === undefined ? {} : { iteration: step.iteration }),
          attempt: step.attempt,
          host: step.host,
          outcome: step.outcome as 'succeeded' | 'failed' | 'stopped',
          durationMs: step.duration,
          ...(step.error === undefined ? {} : { error: step.error }),
        };
      }
      if (isEnded(execution.status)) {
        yield { type: 'execution.ended', time: execution.endtime, execution };
        return;
      }
      await delay(pause, signal);
      pause = Math.min(pollMaxMs, pause * 2);
    }
  }

  /**
   * The run's events as they happen, until it has ended (the last is `execution.ended`). A lost
   * connection is resumed after the last event received, so none is seen twice or missed.
   */
  async function* events(id: string, options: EventsOptions = {}): AsyncGenerator<RunEvent> {
    const { signal } = options;
    const idleTimeoutMs = options.idleTimeoutMs ?? 45_000;
    let lastId = options.lastEventId;
    let failures = 0;
    let connected = false;
    const url = `${origin}${BASE_PATH}/choreo-executions/${encodeURIComponent(id)}/events`;
    for (;;) {
      let response: Response;
      try {
        response = await transport(url, {
          // JSON too, for the errors: a service without the endpoint answers its 404 so.
          headers: { ...headers, accept: 'text/event-stream, application/json;q=0.5', ...(lastId === undefined ? {} : { 'last-event-id': lastId }) },
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (signal?.aborted || !(error instanceof ConnectionError) || !['unreachable', 'timeout'].includes(error.problem) || ++failures > 8) throw error;
        await delay(Math.min(5000, 250 * 2 ** failures), signal);
        continue;
      }
      if (response.status === 404 && !connected) {
        await response.body?.cancel();
        // The execution exists (status throws the 404 otherwise): the service has no events endpoint.
        await status(id);
        yield* pollEvents(id, signal);
        return;
      }
      if (response.status >= 500 && ++failures <= 8) {
        await response.body?.cancel();
        await delay(Math.min(5000, 250 * 2 ** failures), signal);
        continue;
      }
      if (!response.ok) throw await apiErrorOf(response, origin);
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
        await response.body?.cancel();
        throw new ConnectionError(
          'not-the-service',
          `${origin} answered the events of ${id} with ${response.headers.get('content-type')}, not an event stream`,
        );
      }
      connected = true;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = createSseParser();
      let received = false;
      try {
        for (;;) {
          let timer: NodeJS.Timeout | undefined;
          const idle = new Promise<'idle'>((resolve) => {
            timer = setTimeout(() => resolve('idle'), idleTimeoutMs);
          });
          const next = await Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
          if (next === 'idle' || next.done) break;
          for (const event of parser.push(next.value)) {
            if (event.id !== undefined) lastId = event.id;
            received = true;
            failures = 0;
            const data = JSON.parse(event.data) as RunEvent;
            yield { ...data, ...(event.id === undefined ? {} : { id: event.id }) };
            if (data.type === 'execution.ended') return;
          }
        }
      } catch (error) {
        if (signal?.aborted) throw error;
        // A stream cut off midway: resume after the last event.
        if (++failures > 8)
          throw error instanceof ConnectionError ? error : new ConnectionError('unreachable', `the events of ${id} kept breaking off`, { cause: error });
      } finally {
        await reader.cancel().catch(() => {});
      }
      // The stream ended before the run did (a restarted API, a proxy's timeout): reconnect. Streams
      // that keep ending with nothing in them are a failure like any other.
      if (!received && ++failures > 8) throw new ConnectionError('unreachable', `the events of ${id} kept ending before the run did`);
      await delay(Math.min(5000, 100 * 2 ** failures), signal);
    }
  }

  const inputList = (inputs: Inputs) => (Array.isArray(inputs) ? inputs : Object.entries(inputs).map(([name, value]) => ({ name, value })));

  return {
    /** The typed operations of the OpenAPI document, for what the helpers do not cover. */
    api,
    /** `/service-api/1.0` under the service's address. */
    baseUrl: `${origin}${BASE_PATH}`,

    /**
     * Runs a Choreo. Waits for its end (as long as the service holds the request, then by polling)
     * unless `async`: then answers with the accepted run at once.
     */
    async run(choreo: string, inputs: Inputs = {}, options: RunOptions = {}): Promise<RunResult> {
      const { data, response } = await answer(
        api.POST('/service-api/1.0/choreos/{id}', {
          params: {
            path: { id: choreo },
            query: { ...(options.async ? { mode: 'async' as const } : {}), ...(options.sourceId ? { source_id: options.sourceId } : {}) },
            header: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {},
          },
          body: {
            inputs: inputList(inputs),
            ...(options.preset ? { preset: options.preset } : {}),
            ...(options.outputFilters ? { outputFilters: options.outputFilters } : {}),
          },
        }),
      );
      if (response.status === 200) {
        const ended = data as Schemas['RunResult'];
        return { id: ended.execution.id, execution: ended.execution as Execution, output: ended.output ?? {} };
      }
      const accepted = data as Schemas['RunAccepted'];
      if (options.async) return { id: accepted.id, execution: accepted.execution };
      return { id: accepted.id, ...(await wait(accepted.id)) };
    },

    /**
     * Starts a new execution of a run that ended ERROR or TERMINATED_LIMIT, from where it failed
     * (inputs given replace the run's), and answers with it at once; `wait` or `events` follow it.
     */
    async redrive(id: string, inputs: Inputs = {}, options: { preset?: string; idempotencyKey?: string } = {}): Promise<RunResult> {
      const given = inputList(inputs);
      const { data } = await answer(
        api.POST('/service-api/1.0/choreo-executions/{id}/redrive', {
          params: { path: { id }, header: options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {} },
          body: { ...(given.length > 0 ? { inputs: given } : {}), ...(options.preset ? { preset: options.preset } : {}) },
        }),
      );
      return { id: data.id, execution: data.execution };
    },

    wait,
    events,

    /** The execution's record as it is now. */
    async status(id: string): Promise<Execution> {
      return (await status(id)).execution;
    },
    /** The outputs so far, all of them once it has ended. */
    async outputs(id: string): Promise<EndedRun> {
      const data = await status(id, 'outputs');
      return { execution: data.execution, output: data.output ?? {} };
    },
    /** Every attempt of every step so far; `dropped` when the history had to leave some out. */
    async steps(id: string) {
      const data = await status(id, 'steps');
      return { execution: data.execution, steps: data.steps ?? [], ...(data.dropped ? { dropped: data.dropped } : {}) };
    },
    /** Asks the run to stop: at once when no worker holds it, after its current step otherwise. */
    async terminate(id: string): Promise<void> {
      await answer(api.DELETE('/service-api/1.0/choreo-executions/{id}', { params: { path: { id } } }));
    },
    /** The account's RUNNING executions, oldest first. */
    async running(): Promise<RunningEntry[]> {
      return (await answer(api.GET('/service-api/1.0/choreo-executions'))).data.executions;
    },
    /** One page of the account's retained executions, newest first; `next` asks for the following one. */
    async history(filters: HistoryFilters = {}): Promise<{ executions: HistoryEntry[]; next?: string }> {
      const query = {
        status: filters.status ?? 'any',
        ...(filters.choreo ? { choreo: filters.choreo } : {}),
        ...(filters.since === undefined ? {} : { since: epoch(filters.since) }),
        ...(filters.until === undefined ? {} : { until: epoch(filters.until) }),
        ...(filters.limit === undefined ? {} : { limit: String(filters.limit) }),
        ...(filters.cursor ? { cursor: filters.cursor } : {}),
      };
      const { data } = await answer(api.GET('/service-api/1.0/choreo-executions', { params: { query } }));
      const page = data as Schemas['ExecutionHistory'];
      return { executions: page.executions, ...(page.next ? { next: page.next } : {}) };
    },

    choreos: {
      async list(): Promise<string[]> {
        return (await answer(api.GET('/service-api/1.0/choreos'))).data.resources;
      },
      async show(id: string): Promise<ChoreoDetails> {
        return (await answer(api.GET('/service-api/1.0/choreos/{id}', { params: { path: { id } } }))).data;
      },
      /** Stores a Choreo document as the next version of one of the account's own ids. */
      async push(id: string, document: ChoreoDocument): Promise<{ created: boolean; details: ChoreoDetails }> {
        const { data, response } = await answer(api.PUT('/service-api/1.0/choreos/{id}', { params: { path: { id } }, body: document }));
        return { created: response.status === 201, details: data as ChoreoDetails };
      },
      async delete(id: string): Promise<void> {
        await answer(api.DELETE('/service-api/1.0/choreos/{id}', { params: { path: { id } } }));
      },
    },

    presets: {
      async list(): Promise<string[]> {
        return (await answer(api.GET('/service-api/1.0/presets'))).data.presets;
      },
      /** Its inputs; values masked unless `values` (then those not secret are shown). */
      async show(name: string, options: { values?: boolean } = {}): Promise<Preset> {
        const query = options.values ? { values: 'shown' as const } : {};
        return (await answer(api.GET('/service-api/1.0/presets/{name}', { params: { path: { name }, query } }))).data;
      },
      async put(name: string, inputs: PresetInput[]): Promise<{ created: boolean; preset: Preset }> {
        const { data, response } = await answer(api.PUT('/service-api/1.0/presets/{name}', { params: { path: { name } }, body: { inputs } }));
        return { created: response.status === 201, preset: data as Preset };
      },
      async delete(name: string): Promise<void> {
        await answer(api.DELETE('/service-api/1.0/presets/{name}', { params: { path: { name } } }));
      },
    },
  };
}

export type CesClient = ReturnType<typeof createCesClient>;
