import type { ExecutionQueues, ExecutionStore, RunHistory, WorkerRegistry } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import type { Authentication } from '../auth/throttled-authentication.ts';
import { authenticateOperator } from '../middleware/authenticate.ts';
import { opsExecutionHistoryRoute } from './ops-execution-history.ts';
import { opsExecutionsRoute } from './ops-executions.ts';
import { opsQueuesRoute } from './ops-queues.ts';
import { opsWorkersRoute } from './ops-workers.ts';

export const OPS_PATH = '/ops';
/** The queue dashboard: a page with its own scripts, styles and JSON, whatever the API's formats. */
export const DASHBOARD_PATH = `${OPS_PATH}/queues`;

export interface OpsDeps {
  workers: WorkerRegistry;
  queues: ExecutionQueues;
  /** Where the dashboard reads what its jobs' executions are: Choreo, account, host, status. */
  executions: ExecutionStore;
  /** Every account's retained runs (`/ops/executions/history`). */
  history: RunHistory;
}

/**
 * Everything under `/ops`, for operators only: account users and applications get 403, and no
 * credentials 401 with a Basic challenge (which makes a browser ask, for the dashboard).
 * Mount at OPS_PATH: the middleware here covers every path below it, known or not.
 */
export function opsRoutes(deps: OpsDeps & { authentication: Authentication }) {
  const ops = new Hono<AppEnv>();
  ops.use(authenticateOperator({ authentication: deps.authentication }));
  ops.route('/', opsWorkersRoute({ workers: deps.workers }));
  ops.route('/', opsExecutionHistoryRoute({ history: deps.history }));
  ops.route('/', opsExecutionsRoute({ queues: deps.queues, executions: deps.executions }));
  // The dashboard's own links are relative to `/ops/queues/`, which its router does not answer.
  ops.get('/queues/', (c) => c.redirect(DASHBOARD_PATH, 308));
  ops.route('/queues', opsQueuesRoute({ queues: deps.queues, executions: deps.executions, basePath: DASHBOARD_PATH }) as unknown as Hono<AppEnv>);
  return ops;
}
