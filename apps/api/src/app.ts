import type { Authenticator } from '@ces/accounts';
import type { HttpMetrics, Logger, MetricsRegistry } from '@ces/observability';
import {
  CALLBACK_CAPTURE_PATH,
  isRedisCommandTimeout,
  ReplicationShortError,
  type CallbackStore,
  type ExecutionQueues,
  type ExecutionStore,
  type PresetStore,
  type RunEventLog,
  type RunHistory,
  type ScheduleStore,
} from '@ces/store';
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env.ts';
import { ApiError } from './errors/api-error.ts';
import type { OutputReadGate } from './output-read-gate.ts';
import { CLIENT_CLOSED_REQUEST_STATUS, ClientClosedRequest } from './errors/client-closed-request.ts';
import { ERROR_CATALOGUE, UNAVAILABLE_RETRY_AFTER_SECONDS, type ErrorCode } from './errors/error-catalogue.ts';
import { errorBody } from './formats/representations.ts';
import { respond } from './formats/respond.ts';
import { accessLog } from './middleware/access-log.ts';
import { clientAddressOf } from './auth/client-address.ts';
import { createLoginThrottle } from './auth/login-throttle.ts';
import type { Authentication } from './auth/throttled-authentication.ts';
import { authenticateAccount } from './middleware/authenticate.ts';
import { negotiate } from './middleware/negotiate-format.ts';
import { requestId } from './middleware/request-id.ts';
import { requestMetrics } from './middleware/request-metrics.ts';
import { responseHeaders } from './middleware/response-headers.ts';
import { requireHttps, STRICT_TRANSPORT_SECURITY } from './middleware/require-https.ts';
import { BASE_PATH } from './base-path.ts';
import { routedPath } from './interface-path.ts';
import { createPrefixRouter } from './prefix-router.ts';
import { allowedMethods } from './route-table.ts';
import { deliverCallbackRoute } from './routes/deliver-callback.ts';
import { getChoreoRoute } from './routes/get-choreo.ts';
import { getExecutionRoute } from './routes/get-execution.ts';
import { healthRoutes, PROBE_PATHS, type HealthProbe } from './routes/health.ts';
import { listChoreosRoute } from './routes/list-choreos.ts';
import { listExecutionsRoute } from './routes/list-executions.ts';
import { metricsRoute } from './routes/metrics.ts';
import { DASHBOARD_PATH, OPS_PATH, opsRoutes, type OpsDeps } from './routes/ops-routes.ts';
import { callbackCaptureRoute } from './routes/callback-capture.ts';
import { deletePresetRoute } from './routes/delete-preset.ts';
import { getPresetRoute } from './routes/get-preset.ts';
import { interfaceDocumentRoutes } from './routes/interface-document.ts';
import { API_REFERENCE_PATH, OPENAPI_DOCUMENT_PATH } from './openapi/interface-document-operations.ts';
import { listPresetsRoute } from './routes/list-presets.ts';
import { putPresetRoute } from './routes/put-preset.ts';
import { runChoreoRoute } from './routes/run-choreo.ts';
import { putChoreoRoute } from './routes/put-choreo.ts';
import { deleteChoreoRoute } from './routes/delete-choreo.ts';
import { redriveExecutionRoute } from './routes/redrive-execution.ts';
import { terminateExecutionRoute } from './routes/terminate-execution.ts';
import { RUN_EVENTS_PATH, runEventsRoute } from './routes/run-events.ts';
import type { RunEventFeed } from './events/run-event-feed.ts';
import { deleteWebhookRoute } from './routes/delete-webhook.ts';
import { getWebhookRoute } from './routes/get-webhook.ts';
import { listWebhookDeliveriesRoute } from './routes/list-webhook-deliveries.ts';
import { listWebhooksRoute } from './routes/list-webhooks.ts';
import { putWebhookRoute } from './routes/put-webhook.ts';
import { redeliverWebhookRoute } from './routes/redeliver-webhook.ts';
import { rotateWebhookSecretRoute } from './routes/rotate-webhook-secret.ts';
import type { WebhookRouteDeps } from './routes/webhook-deps.ts';
import { backfillScheduleRoute } from './routes/backfill-schedule.ts';
import { deleteScheduleRoute } from './routes/delete-schedule.ts';
import { getScheduleRoute } from './routes/get-schedule.ts';
import { listSchedulesRoute } from './routes/list-schedules.ts';
import { pauseScheduleRoutes } from './routes/pause-schedule.ts';
import { putScheduleRoute } from './routes/put-schedule.ts';
import { triggerScheduleRoute } from './routes/trigger-schedule.ts';
import { createScheduleRuns } from './schedules/schedule-runs.ts';
import type { ChoreoLookup } from './runs/choreo-lookup.ts';
import type { ChoreoWrites } from './runs/choreo-writes.ts';
import type { RunLauncher } from './runs/run-launcher.ts';
import type { SealedErrorMask } from './runs/sealed-error-mask.ts';
import { createSealedOutputsOpener, type SealedOutputsOpener } from './runs/sealed-outputs-opener.ts';
import { CONSOLE_PATH } from './console/console-path.ts';
import { consoleRoutes, type ConsoleDeps } from './console/console-routes.ts';
import { rootRedirect } from './console/root-redirect.ts';

export interface AppConfig {
  serviceHost: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  /** Failed authentications allowed per client address and name, and minute (0: no limit). */
  maxAuthFailuresPerMinute: number;
  /** Failed authentications allowed per client address and minute, whatever the names (0: no limit). */
  maxAuthFailuresPerAddressPerMinute: number;
  /** Presets one account may keep (0: no limit); for the message that refuses one more. */
  maxPresetsPerAccount?: number;
  /** How long a console session lasts (CONSOLE_SESSION_MINUTES); 8 hours when omitted. */
  consoleSessionMs?: number;
  /** Schedules one account may keep (0: no limit); for the message that refuses one more. */
  maxSchedulesPerAccount?: number;
  /** PUBLIC_BASE_URL: the public address of runs' URLs; without it, each run's comes from its request. */
  publicBaseUrl?: string;
  /** EVENTS_HEARTBEAT_MS: how often an open run events stream gets a heartbeat (15 s when omitted). */
  eventsHeartbeatMs?: number;
  /** Webhooks one account may keep (0: no limit); for the message that refuses one more. */
  maxWebhooksPerAccount?: number;
}

export interface AppDeps {
  config: AppConfig;
  /** The catalogue's Choreos and each account's own, for every route that names one. */
  choreos: { lookup: ChoreoLookup; writes: ChoreoWrites };
  executions: ExecutionStore;
  /** Every retained run, for the run history. */
  history: RunHistory;
  /** Runs' events: read, and fed live to the open streams (one feed per process). */
  runEvents: { log: RunEventLog; feed: RunEventFeed };
  /** Where `?view=outputs` reads, and how many answers at once; without it, `executions`, unbounded. */
  outputReads?: { executions: ExecutionStore; gate: OutputReadGate };
  /** Every shard's execution queue. */
  queues: ExecutionQueues;
  launcher: RunLauncher;
  /** Accounts' schedules. */
  schedules: ScheduleStore;
  /** Accounts' presets; absent when the service has no SECRETS_KEY (the preset routes answer 503). */
  presets?: PresetStore;
  /** Accounts' webhooks and their deliveries; absent without SECRETS_KEY (the webhook routes answer 503). */
  webhooks?: WebhookRouteDeps;
  /** What callback URLs stand for; absent without SECRETS_KEY (every callback URL is then 404). */
  callbacks?: CallbackStore;
  /** Masks a run's sealed inputs (from a preset, or secret) in its shown error. */
  maskSealedInputs?: SealedErrorMask;
  /** Opens a run's secret outputs for the answers that show them; without it, such runs answer 503. */
  openSealedOutputs?: SealedOutputsOpener;
  authenticator: Authenticator;
  probe: HealthProbe;
  /** False while Redis is unreachable: failures are then answered 503, not 500. */
  isRedisAvailable: () => boolean;
  logger: Logger;
  /** Request metrics and `/metrics`; omitted in tests that do not need them. */
  metrics?: { registry: MetricsRegistry; http: HttpMetrics };
  /** `/ops` for operators; omitted in tests that do not need it. */
  ops?: OpsDeps;
  /** The console at `/console`; omitted in tests that do not need it. */
  console?: Pick<ConsoleDeps, 'sessions' | 'workers' | 'cipher'>;
  /** How many shards a schedule's tick at a time maps among (ShardLayout.shardsAt); 1 when absent. */
  shardsAt?: (time: number) => number;
}

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>({ router: createPrefixRouter(OPS_PATH), getPath: routedPath });
  app.use(responseHeaders({ always: STRICT_TRANSPORT_SECURITY }));
  app.use(requestId());
  app.use(accessLog({ logger: deps.logger, probes: PROBE_PATHS }));
  if (deps.metrics) app.use(requestMetrics({ http: deps.metrics.http }));
  if (deps.console) app.use(rootRedirect());
  app.use(
    negotiate({
      ownFormatsUnder: [DASHBOARD_PATH, CONSOLE_PATH, CALLBACK_CAPTURE_PATH, OPENAPI_DOCUMENT_PATH, API_REFERENCE_PATH],
      ownFormatsMatching: [RUN_EVENTS_PATH],
    }),
  );
  if (deps.config.trustProxy) app.use(requireHttps({ probes: PROBE_PATHS }));
  app.route('/', callbackCaptureRoute(deps));
  const authentication: Authentication = {
    authenticator: deps.authenticator,
    throttles: {
      byName: createLoginThrottle({ maxFailures: deps.config.maxAuthFailuresPerMinute }),
      byAddress: createLoginThrottle({ maxFailures: deps.config.maxAuthFailuresPerAddressPerMinute }),
    },
    clientAddress: clientAddressOf({ trustProxy: deps.config.trustProxy }),
  };
  app.route('/', healthRoutes({ probe: deps.probe }));
  if (deps.metrics) app.route('/', metricsRoute({ registry: deps.metrics.registry, authentication }));
  if (deps.ops) app.route(OPS_PATH, opsRoutes({ ...deps.ops, authentication }));
  const scheduleRuns = createScheduleRuns({
    schedules: deps.schedules,
    executions: deps.executions,
    lookup: deps.choreos.lookup,
    launcher: deps.launcher,
    ...(deps.shardsAt ? { shardsAt: deps.shardsAt } : {}),
  });
  if (deps.console) {
    app.route(
      CONSOLE_PATH,
      consoleRoutes({
        ...deps.console,
        authentication,
        executions: deps.executions,
        history: deps.history,
        queues: deps.queues,
        runEvents: deps.runEvents.log,
        feed: deps.runEvents.feed,
        heartbeatMs: deps.config.eventsHeartbeatMs ?? 15_000,
        logger: deps.logger,
        launcher: deps.launcher,
        schedules: deps.schedules,
        scheduleRuns,
        ...(deps.config.publicBaseUrl !== undefined ? { publicBaseUrl: deps.config.publicBaseUrl } : {}),
        ...(deps.webhooks ? { webhooks: deps.webhooks } : {}),
        ...(deps.maskSealedInputs ? { maskSealedInputs: deps.maskSealedInputs } : {}),
      }),
    );
  }
  // Public: the token in the URL is the permission.
  app.route('/', deliverCallbackRoute({ executions: deps.executions, queues: deps.queues }));
  // Public, and before the interface's authentication, which covers every other path under BASE_PATH.
  app.route('/', interfaceDocumentRoutes());

  const api = new Hono<AppEnv>();
  api.use(authenticateAccount({ authentication, serviceHost: deps.config.serviceHost }));
  const { lookup, writes } = deps.choreos;
  api.route('/', listChoreosRoute({ choreos: lookup }));
  api.route('/', getChoreoRoute({ choreos: lookup, basePath: BASE_PATH }));
  const openOutputs = deps.openSealedOutputs ?? createSealedOutputsOpener();
  api.route(
    '/',
    runChoreoRoute({
      choreos: lookup,
      launcher: deps.launcher,
      basePath: BASE_PATH,
      bodyLimitBytes: deps.config.bodyLimitBytes,
      openSealedOutputs: openOutputs,
      ...(deps.webhooks ? { webhooks: deps.webhooks.store } : {}),
      ...(deps.config.publicBaseUrl !== undefined ? { publicBaseUrl: deps.config.publicBaseUrl } : {}),
    }),
  );
  api.route('/', putChoreoRoute({ lookup, writes, basePath: BASE_PATH }));
  api.route('/', deleteChoreoRoute({ lookup, writes, basePath: BASE_PATH }));
  api.route('/', listExecutionsRoute(deps));
  api.route('/', getExecutionRoute({ ...deps, openSealedOutputs: openOutputs }));
  api.route('/', terminateExecutionRoute(deps));
  api.route(
    '/',
    runEventsRoute({
      executions: deps.executions,
      runEvents: deps.runEvents.log,
      feed: deps.runEvents.feed,
      heartbeatMs: deps.config.eventsHeartbeatMs ?? 15_000,
      ...(deps.maskSealedInputs ? { maskSealedInputs: deps.maskSealedInputs } : {}),
    }),
  );
  api.route(
    '/',
    redriveExecutionRoute({
      launcher: deps.launcher,
      basePath: BASE_PATH,
      bodyLimitBytes: deps.config.bodyLimitBytes,
      ...(deps.config.publicBaseUrl !== undefined ? { publicBaseUrl: deps.config.publicBaseUrl } : {}),
    }),
  );
  api.route('/', listPresetsRoute(deps));
  api.route('/', getPresetRoute(deps));
  api.route('/', putPresetRoute({ ...deps, bodyLimitBytes: deps.config.bodyLimitBytes, maxPresetsPerAccount: deps.config.maxPresetsPerAccount ?? 0 }));
  api.route('/', deletePresetRoute(deps));
  api.route('/', listWebhooksRoute(deps));
  api.route('/', getWebhookRoute(deps));
  api.route('/', putWebhookRoute({ ...deps, bodyLimitBytes: deps.config.bodyLimitBytes, maxWebhooksPerAccount: deps.config.maxWebhooksPerAccount ?? 0 }));
  api.route('/', deleteWebhookRoute(deps));
  api.route('/', rotateWebhookSecretRoute(deps));
  api.route('/', listWebhookDeliveriesRoute(deps));
  api.route('/', redeliverWebhookRoute(deps));
  const schedules = {
    schedules: deps.schedules,
    scheduleRuns,
    bodyLimitBytes: deps.config.bodyLimitBytes,
  };
  api.route('/', listSchedulesRoute(schedules));
  api.route('/', getScheduleRoute(schedules));
  api.route('/', putScheduleRoute({ ...schedules, lookup }));
  api.route('/', deleteScheduleRoute(schedules));
  api.route('/', pauseScheduleRoutes(schedules));
  api.route('/', triggerScheduleRoute(schedules));
  api.route('/', backfillScheduleRoute(schedules));
  app.route(BASE_PATH, api);

  app.notFound((c) => {
    const allowed = allowedMethods(c.req.path);
    // A known path with an allowed method that still found no handler (an empty id) is simply absent.
    if (allowed.length > 0 && !allowed.includes(c.req.method === 'HEAD' ? 'GET' : c.req.method))
      throw new ApiError('METHOD_NOT_ALLOWED', `Use ${allowed.join(', ')} here.`, { headers: { Allow: allowed.join(', ') } });
    throw new ApiError('NOT_FOUND');
  });

  app.onError((error, c) => renderError(c, error, deps));
  return app;
}

function renderError(c: Context<AppEnv>, error: Error, deps: AppDeps) {
  const requestIdValue = c.get('requestId') ?? '';
  if (error instanceof ClientClosedRequest) {
    // Nobody is left to answer: the status is for the access line and the metrics only.
    deps.logger.debug({ requestId: requestIdValue, err: error.cause }, 'client closed the connection before its request was read');
    return new Response(null, { status: CLIENT_CLOSED_REQUEST_STATUS });
  }
  if (!c.get('format')) c.set('format', 'json');
  let code: ErrorCode;
  let message: string;
  let headers: Record<string, string> = {};
  if (error instanceof ApiError) {
    ({ code, message, headers } = error);
    if (error.limit) deps.metrics?.http.refused(error.limit);
  } else if (error instanceof HTTPException && error.status < 500) {
    code = codeForStatus(error.status) ?? 'BAD_REQUEST';
    message = error.message || ERROR_CATALOGUE[code].message;
  } else if (!deps.isRedisAvailable() || isRedisCommandTimeout(error) || error instanceof ReplicationShortError) {
    code = 'SERVICE_UNAVAILABLE';
    message = ERROR_CATALOGUE.SERVICE_UNAVAILABLE.message;
    headers = { 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS };
    deps.logger.warn({ requestId: requestIdValue, err: error }, 'request failed while Redis is unavailable or slow');
  } else {
    code = 'INTERNAL_ERROR';
    message = ERROR_CATALOGUE.INTERNAL_ERROR.message;
    deps.logger.error({ requestId: requestIdValue, err: error }, 'request failed');
  }
  const status = ERROR_CATALOGUE[code].status as ContentfulStatusCode;
  return respond(c, status, errorBody(code, message, requestIdValue), headers);
}

function codeForStatus(status: number): ErrorCode | undefined {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).find((code) => ERROR_CATALOGUE[code].status === status);
}
