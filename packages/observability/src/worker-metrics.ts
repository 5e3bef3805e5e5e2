import { Counter, Gauge } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

/** What a worker counts as it goes: takes it refused for the limit per account. */
export interface WorkerTakeMetrics {
  deferred(): void;
}

/** A worker process's capacity and load, read when Prometheus scrapes, and its deferred takes. */
export function registerWorkerMetrics(registry: MetricsRegistry, sources: { concurrency: number; activeCount: () => number }): WorkerTakeMetrics {
  new Gauge({
    name: 'ces_worker_concurrency',
    help: 'Executions this worker process may run at once.',
    registers: [registry],
    collect() {
      this.set(sources.concurrency);
    },
  });
  new Gauge({
    name: 'ces_worker_active_executions',
    help: 'Executions this worker process is running now.',
    registers: [registry],
    collect() {
      this.set(sources.activeCount());
    },
  });
  const deferred = new Counter({
    name: 'ces_worker_deferred_takes_total',
    help: 'Executions this worker put back to wait because their account had its maximum executing (MAX_EXECUTING_PER_ACCOUNT).',
    registers: [registry],
  });
  return {
    deferred() {
      deferred.inc();
    },
  };
}
