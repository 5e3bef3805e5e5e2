import { Gauge } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

/** A worker process's capacity and load, read when Prometheus scrapes. */
export function registerWorkerMetrics(registry: MetricsRegistry, sources: { concurrency: number; activeCount: () => number }): void {
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
}
