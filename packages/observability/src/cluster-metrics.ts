import { Counter, Gauge } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.ts';

/** Where the cluster-wide gauges read their values, at scrape time. */
export interface ClusterSources {
  queueCounts(): Promise<{ waiting: number; active: number; delayed: number }>;
  /** Epoch ms at which the oldest waiting execution was queued; undefined when none waits. */
  oldestWaitingSince(): Promise<number | undefined>;
  runningByAccount(): Promise<Record<string, number>>;
  /** What each account's budget of stored bytes counts now. */
  storedBytesByAccount(): Promise<Record<string, number>>;
  liveWorkers(): Promise<number>;
  /** RUNNING executions suspended in a durable wait (holding no worker, due at a time), by what they wait for. */
  waitingExecutions(): Promise<{ time: number; callBack: number }>;
  /** Executions every process together has created, and ended by terminal status, as Redis counts them. */
  executionCounts(): Promise<{ started: number; ended: Record<string, number> }>;
}

/**
 * Gauges that describe the whole service rather than this process: read from Redis on each
 * scrape, so they are exact whenever Prometheus looks, and the same on every API instance (take
 * `max` over instances). A source that fails (Redis away) drops its series for that scrape
 * instead of failing the whole scrape, so process metrics stay visible during an outage.
 */
export function registerClusterMetrics(registry: MetricsRegistry, sources: ClusterSources, now: () => number = Date.now): void {
  new Gauge({
    name: 'ces_queue_jobs',
    help: 'Executions in the queue, by state: waiting, active, delayed (retry back-off, deferred, or in a durable wait).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await sources.queueCounts().catch(() => undefined);
      if (!counts) return;
      for (const state of ['waiting', 'active', 'delayed'] as const) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: 'ces_queue_oldest_waiting_age_seconds',
    help: 'How long the oldest waiting execution has waited for a worker; 0 when none waits.',
    registers: [registry],
    async collect() {
      this.reset();
      const since = await sources.oldestWaitingSince().then(
        (value) => ({ value }),
        () => undefined,
      );
      if (!since) return;
      this.set(since.value === undefined ? 0 : Math.max(0, (now() - since.value) / 1000));
    },
  });
  accountGauge(registry, 'ces_executions_running', 'RUNNING executions (queued or executing), by account.', sources.runningByAccount);
  accountGauge(
    registry,
    'ces_account_stored_bytes',
    "Bytes an account's executions stored over the last retention period, as its budget counts them (MAX_STORED_BYTES_PER_ACCOUNT).",
    sources.storedBytesByAccount,
  );
  new Gauge({
    name: 'ces_executions_waiting',
    help: 'RUNNING executions suspended in a durable wait (holding no worker until due), by what they wait for: a time (control.wait, or a child execution: choreo.run) or a call back (control.waitForCallback); among the delayed jobs of ces_queue_jobs.',
    labelNames: ['for'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const waiting = await sources.waitingExecutions().catch(() => undefined);
      if (waiting === undefined) return;
      this.set({ for: 'time' }, waiting.time);
      this.set({ for: 'call-back' }, waiting.callBack);
    },
  });
  new Gauge({
    name: 'ces_workers_live',
    help: 'Worker processes with a live heartbeat.',
    registers: [registry],
    async collect() {
      this.reset();
      const live = await sources.liveWorkers().catch(() => undefined);
      if (live !== undefined) this.set(live);
    },
  });
  // Counters kept in Redis, for ever: monotonic, so `increase(...[1h])` answers for the last hour
  // whichever API is scraped, with no worker's metrics port. One read serves both series.
  let counts: ReturnType<ClusterSources['executionCounts']> | undefined;
  const readCounts = () => {
    counts ??= sources.executionCounts().finally(() => {
      counts = undefined;
    });
    return counts.catch(() => undefined);
  };
  new Counter({
    name: 'ces_service_executions_started_total',
    help: 'Executions created by the whole service (every API), counted in Redis: the same on every API instance.',
    registers: [registry],
    async collect() {
      this.reset();
      const read = await readCounts();
      if (read) this.inc(read.started);
    },
  });
  new Counter({
    name: 'ces_service_executions_ended_total',
    help: 'Executions ended by the whole service (every worker and API), by terminal status, counted in Redis: the same on every API instance.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const read = await readCounts();
      if (!read) return;
      for (const [status, value] of Object.entries(read.ended)) this.inc({ status }, value);
    },
  });
}

/** A gauge with one series per account, read from `source` on each scrape. */
function accountGauge(registry: MetricsRegistry, name: string, help: string, source: () => Promise<Record<string, number>>) {
  new Gauge({
    name,
    help,
    labelNames: ['account'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const byAccount = await source().catch(() => undefined);
      if (!byAccount) return;
      for (const [account, value] of Object.entries(byAccount)) this.set({ account }, value);
    },
  });
}
