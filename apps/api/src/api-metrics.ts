import type { AccountStore } from '@ces/accounts';
import {
  createExecutionMetrics,
  createHttpMetrics,
  createMetricsRegistry,
  createRedisMetrics,
  registerClusterMetrics,
  registerScheduleGauges,
  type ExecutionMetrics,
  type HttpMetrics,
  type MetricsRegistry,
  type RedisMetrics,
} from '@ces/observability';
import { type ExecutionQueues, type ExecutionStore, queuedJobCounts, type ScheduleStore, type WorkerRegistry } from '@ces/store';

export interface ApiMetrics {
  registry: MetricsRegistry;
  http: HttpMetrics;
  executions: ExecutionMetrics;
  redis: RedisMetrics;
}

/**
 * The API's metrics: its requests, the executions it starts (and the queued ones it ends by
 * termination), its Redis connections, the requests its limits refuse, and the cluster-wide gauges
 * read from Redis on scrape — queue, running executions and stored bytes per account, live workers,
 * schedules active and paused.
 */
export function createApiMetrics(deps: {
  queues: ExecutionQueues;
  executions: ExecutionStore;
  accounts: AccountStore;
  workers: WorkerRegistry;
  schedules: ScheduleStore;
}): ApiMetrics {
  const registry = createMetricsRegistry({ service: 'api' });
  async function byAccount(read: (account: string) => Promise<number>): Promise<Record<string, number>> {
    const accounts = await deps.accounts.listAccounts();
    return Object.fromEntries(await Promise.all(accounts.map(async (account) => [account, await read(account)] as const)));
  }
  registerClusterMetrics(registry, {
    async queueCounts() {
      return queuedJobCounts(deps.queues);
    },
    async oldestWaitingSince() {
      // Ascending: the job a worker will take next, which has waited longest.
      const oldest = (await Promise.all(deps.queues.all.map((queue) => queue.getWaiting(0, 0)))).flat().map((job) => job.timestamp);
      return oldest.length === 0 ? undefined : Math.min(...oldest);
    },
    runningByAccount: () => byAccount((account) => deps.executions.countRunning(account)),
    storedBytesByAccount: () => byAccount((account) => deps.executions.storedBytes(account)),
    liveWorkers: () => deps.workers.count(),
    waitingExecutions: async () => {
      const { total, forCallBack } = await deps.executions.countWaiting();
      return { time: total - forCallBack, callBack: forCallBack };
    },
    executionCounts: () => deps.executions.counts(),
  });
  registerScheduleGauges(registry, {
    async counts() {
      // Every unpaused schedule is in the due set, whether a firer holds it or not.
      const [byAccountCount, active] = await Promise.all([byAccount((account) => deps.schedules.countOf(account)), deps.schedules.countDue()]);
      const total = Object.values(byAccountCount).reduce((sum, count) => sum + count, 0);
      return { active, paused: Math.max(0, total - active) };
    },
  });
  return {
    registry,
    http: createHttpMetrics(registry),
    executions: createExecutionMetrics(registry),
    redis: createRedisMetrics(registry),
  };
}
